#pragma once
// The rendezvous of a 2025-era server-to-client request: the server expects an answer under a
// key, and the client's response, POSTed on any connection (on any node, with a shared mailbox),
// is delivered to whoever expects it. Nothing waits on a thread: the receiver runs when the answer
// comes (docs/adr/0015-parked-calls.md). MailboxWait is the blocking form, for handlers that keep
// their thread while the client answers.
#include <boost/json/value.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

namespace mcp::detail {

class Mailbox {
public:
    // Runs once, on the thread that delivers the answer; it must be short.
    using Receiver = std::function<void(boost::json::value)>;

    virtual ~Mailbox() = default;
    // Starts expecting an answer for `key`, before the request goes out. A shared store keeps
    // what it holds for the key at most `ttl`.
    virtual void expect(std::string_view key, std::chrono::milliseconds ttl, Receiver receiver) = 0;
    // Stops expecting. False when the answer came first: its receiver has run or is running.
    virtual bool forget(std::string_view key) = 0;
    // False when nobody expects `key` (never asked, already answered, forgotten).
    virtual bool deliver(std::string_view key, boost::json::value value) = 0;
};

std::unique_ptr<Mailbox> make_memory_mailbox();

// Expects an answer on construction; get() waits for it on the calling thread.
class MailboxWait {
public:
    MailboxWait(Mailbox& mailbox, std::string key, std::chrono::milliseconds ttl);
    // Stops expecting, if get() did not.
    ~MailboxWait();
    MailboxWait(const MailboxWait&) = delete;
    MailboxWait& operator=(const MailboxWait&) = delete;

    // The answer, or nothing when `deadline` passed or `stop` was requested first. Stops expecting
    // either way.
    std::optional<boost::json::value> get(std::chrono::steady_clock::time_point deadline, std::stop_token stop);

private:
    struct Slot {
        std::mutex mutex;
        std::condition_variable arrived;
        std::optional<boost::json::value> value;
    };

    Mailbox& mailbox_;
    std::string key_;
    std::shared_ptr<Slot> slot_ = std::make_shared<Slot>();
    bool expecting_ = true;
};

}  // namespace mcp::detail
