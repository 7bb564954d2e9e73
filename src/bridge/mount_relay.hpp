#pragma once
// A mount's link to the same mount on the other gateway nodes sharing a store, for the 2026 retries
// that reach a node other than the one whose inner call waits between rounds
// (docs/adr/0029-gateway.md, decision 11). Each mount is a node of its own (a random id); messages
// go over the mount's broadcast topic, addressed by node, as relay_wire.hpp writes them.
// - The retry's node answers the round's question from the retry's inputResponses and sends the
//   answer to the owner (resume()), then waits: for the result, the error, or the next round's
//   ticket. The owner says it is still at work every `heartbeat`; `silence` without a word from it
//   fails the retry (a dead node never hangs it).
// - The owner takes the call out of its table (one resume per parked call: a second gets "gone"),
//   settles the question, and waits for the inner call on a worker thread of its own, as a local
//   retry's handler run does. A retry cancelled on its node has the owner abandon the call, as a
//   local one does.
// A resume delivered twice is served once; unknown, duplicate and late replies, and malformed
// messages, are ignored and counted.
#include "bridge/open_calls.hpp"
#include "bridge/relay_wire.hpp"

#include <mcp/server/context.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace mcp::detail {

// How often an owner says it is still at work, and how long a retry's node waits without a word.
struct RelayTiming {
    std::chrono::milliseconds heartbeat{1'000};
    std::chrono::milliseconds silence{5'000};
};

class MountRelay {
public:
    // Sends one message to every node (this one's receive() included, or not).
    using Publish = std::function<void(std::string_view payload)>;
    // Answers the question of a round from the retry's Context; whatever ends the run (a 2026
    // client's next round) goes through.
    using Settle = std::function<Settlement(Context&, const MountedCall::Question&)>;

    // `publish` null: one node (no shared store), nothing is forwarded.
    MountRelay(std::string prefix, OpenCalls& open, Publish publish, RelayTiming timing = {});
    ~MountRelay();
    MountRelay(const MountRelay&) = delete;
    MountRelay& operator=(const MountRelay&) = delete;

    const std::string& node() const { return node_; }
    // Whether a ticket of `node` is resumed there (another node, with a shared store).
    bool elsewhere(const std::string& node) const { return publish_ && node != node_; }
    // The sealed state of a call parked here under `id`, waiting on `question`.
    std::string ticket(std::string id, MountedCall::Question question) const;

    // The retry's side: settles `ticket`'s question with `settle` and has its node go on, round
    // after round, until the call ends (its result, or its mcp::Error) or a round's question is
    // put to the outer client (`settle` ends the run, the round's ticket in the state). Throws
    // mcp::Error -32603 when the call is no longer waiting there, or its node stays silent.
    CallToolResult resume(Context& ctx, RoundTicket ticket, const Settle& settle);
    // One round of it: sends `settlement` to the ticket's node and waits for its final reply.
    // Throws mcp::Error -32603 when the node stays silent, the store refuses, or `stop` trips.
    ReplyMessage::Body exchange(const RoundTicket& ticket, Settlement settlement, const std::stop_token& stop);

    // Every message on the mount's topic (a store thread).
    void receive(std::string_view payload);

    // The mount goes: no more resumes are served, and the workers are joined (their calls were
    // abandoned first, so none waits long).
    void stop();

    // Messages ignored so far: unknown, duplicate or late replies, malformed or oversized ones.
    std::size_t ignored() const { return ignored_.load(); }

private:
    struct Exchange;
    void on_reply(ReplyMessage message);
    void serve(ResumeMessage resume);
    // Whether this node sees `exchange` for the first time (a store may deliver a message again).
    bool first_time(const std::string& exchange);
    void cancel(const std::string& exchange);
    void run_resume(const ResumeMessage& resume, const std::shared_ptr<MountedCall>& call);
    void reply(const ResumeMessage& to, ReplyMessage::Body body);
    void ignore(const char* why);

    const std::string prefix_;
    const std::string node_;
    OpenCalls& open_;
    const Publish publish_;
    const RelayTiming timing_;
    std::atomic<std::size_t> ignored_{0};

    std::mutex exchanges_mutex_;
    std::map<std::string, std::shared_ptr<Exchange>, std::less<>> exchanges_;  // this node's resumes waiting

    static constexpr std::size_t kRememberedExchanges = 4'096;
    std::mutex served_mutex_;
    std::set<std::string, std::less<>> served_;  // the last resumes served here, by exchange
    std::deque<std::string> served_order_;
    std::map<std::string, std::weak_ptr<MountedCall>, std::less<>> serving_;  // by exchange, while resumed here

    std::mutex workers_mutex_;
    bool stopped_ = false;
    std::uint64_t next_worker_ = 0;
    std::map<std::uint64_t, std::thread> workers_;
    std::vector<std::uint64_t> finished_;  // workers whose run ended, joined by the next serve()
};

// The error of a retry whose call does not wait anywhere any more.
[[noreturn]] void throw_no_longer_waiting(const std::string& prefix);

}  // namespace mcp::detail
