#pragma once
// One mounted call (a tool call, a prompt, a read) while the inner server works on it: the inner
// call's end, and the requests the inner server sends meanwhile (elicitation, sampling, roots).
// Each request waits on a thread of the inner client's pool until the outer handler, which owns the
// outer call's Context, settles it with the outer client's answer; the inner server's progress and
// log messages go to that Context (docs/adr/0029-gateway.md, decision 11).
#include <mcp/client/options.hpp>
#include <mcp/client/types.hpp>
#include <mcp/protocol/client_features.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/server/context.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mcp::detail {

using InnerRequest = std::variant<Elicitation, SamplingRequest, RootsRequest>;
using OuterAnswer = RoundAnswer;  // std::variant<ElicitResult, SamplingResult, std::vector<Root>>
using InnerResult = std::variant<CallToolResult, GetPromptResult, ReadResourceResult>;

class MountedCall {
public:
    MountedCall() = default;
    MountedCall(const MountedCall&) = delete;
    MountedCall& operator=(const MountedCall&) = delete;

    // ---- The inner client's side.

    // Blocks until the outer handler settles `request`: its answer, or mcp::Error when none can come.
    // `round_key`: a 2026 inner server's input request, which the inner client knows to be this
    // call's (CallOptions::elicitation), under the key the inner server named it by; empty for a
    // 2025 server's request routed here.
    OuterAnswer ask(InnerRequest request, const std::string& round_key = {});
    // A 2026 round's requests together (CallOptions::input_round; a roots/list request is a
    // RootsRequest): the outer handler sees them
    // together too. Their answers in order, or mcp::Error when one has none.
    std::vector<OuterAnswer> ask(const std::vector<RoundRequest>& requests);
    // The inner server answered the call with a task, which the inner client now follows.
    void task_started();
    // The inner call's end.
    void finish(std::exception_ptr error, InnerResult result);
    // What the inner call stops with: abandon() triggers it.
    std::stop_token stop_token() const { return stop_.get_token(); }

    // ---- The outer handler's side.

    // An inner request waiting for its answer, under the key that names it to a 2026 outer client:
    // the inner server's own, else `elicitation-<n>`, `sampling-<n>` or `roots-<n>` in the order
    // asked.
    struct Question {
        std::string key;
        InnerRequest request;
        bool in_round = false;
    };
    // Waits for the oldest unsettled request, or for the inner call's end (nothing). When the inner
    // call became a task, runs `start_task` first, once, before any request the task asks.
    std::optional<Question> next(const std::function<void()>& start_task = {});
    // Every unsettled request, oldest first: those asked together with the one next() returned.
    std::vector<Question> unsettled();
    // Whether next() would return at once, after waiting up to `timeout` for it.
    bool ready_within(std::chrono::milliseconds timeout);
    // Settles the request of that key.
    void answer(const std::string& key, OuterAnswer answer);
    void refuse(const std::string& key, int code, std::string message);
    // Settles the oldest request (another node's resume, which answers one question a round).
    void answer(OuterAnswer answer);
    void refuse(int code, std::string message);
    // After next() returned nothing: the inner call's result, or what it failed with.
    InnerResult result();
    // Cancels the inner call and refuses every request still waiting.
    void abandon(const std::string& why);
    // Runs `on_stop` once `token` is stopped, for as long as the call lives; later calls keep the
    // first. For a call parked in an outer task: tasks/cancel trips the task's token while no run of
    // the outer handler watches it.
    void stop_with(std::stop_token token, std::function<void()> on_stop);

    // Inner progress and log messages become the outer call's while a run of its handler is
    // attached (the Context is that run's); what comes between runs, or after the last, is dropped.
    // At most kMaxLogMessages log messages per call are passed on (the outer client's level filters
    // them further, and the rest are dropped). log() is false when no run is attached.
    static constexpr int kMaxLogMessages = 1'000;
    void attach(Context* ctx);
    void progress(const Progress& p);
    bool log(const LogMessage& message);
    // A 2026 inner server sends a request's log messages only at the level the request asked for:
    // this call's (nothing: none). Not set (a 2025 inner session's level is every call's), any.
    // Called before the call is entered in OpenCalls.
    void asked_log_level(std::optional<LogLevel> level);
    bool may_log(LogLevel level) const;

private:
    struct Waiting {
        Question question;
        std::optional<OuterAnswer> answer;
        std::optional<std::pair<int, std::string>> refusal;
    };
    std::vector<std::shared_ptr<Waiting>> enqueue(const std::vector<std::pair<InnerRequest, std::string>>& requests);
    std::vector<OuterAnswer> ask_all(const std::vector<std::shared_ptr<Waiting>>& waiting);
    std::string oldest_key();
    void settle(const std::string& key, std::optional<OuterAnswer> answer,
                std::optional<std::pair<int, std::string>> refusal);
    void refuse_all(const std::string& why);                              // mutex_ held
    std::string key_for(const char* kind, const std::string& round_key);  // mutex_ held

    std::mutex progress_mutex_;  // ctx_ and logged_
    Context* ctx_ = nullptr;
    int logged_ = 0;
    // Set before the call is entered in OpenCalls, read under its lock.
    bool selective_log_ = false;  // asked_log_level() was called
    std::optional<LogLevel> asked_level_;
    std::stop_source stop_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<Waiting>> waiting_;
    int asked_ = 0;               // keys the mount made so far
    std::set<std::string> keys_;  // every key given to a request of this call
    bool task_ = false;           // the inner call became a task
    bool task_told_ = false;      // and start_task ran for it
    bool done_ = false;
    std::exception_ptr error_;
    InnerResult result_;
    std::string abandoned_;  // why, once abandoned
    // Last: it may run abandon() until it is gone.
    std::optional<std::stop_callback<std::function<void()>>> outer_stop_;
};

}  // namespace mcp::detail
