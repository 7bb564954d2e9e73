#pragma once
// One mounted tool call while the inner server works on it: the inner call's end, and the requests
// the inner server sends meanwhile (elicitation, sampling). Each request waits on a thread of the
// inner client's pool until the outer handler, which owns the outer call's Context, settles it
// with the outer client's answer (docs/adr/0029-gateway.md, decision 11).
#include <mcp/client/types.hpp>
#include <mcp/protocol/client_features.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/server/context.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <variant>

namespace mcp::detail {

using InnerRequest = std::variant<Elicitation, SamplingRequest>;
using OuterAnswer = std::variant<ElicitResult, SamplingResult>;

class MountedCall {
public:
    // A call that passes requests on (a tool call), or one that only counts as in flight (a prompt,
    // a read), whose inner requests are refused. Either passes progress on.
    explicit MountedCall(bool relays) : relays_(relays) {}
    MountedCall(const MountedCall&) = delete;
    MountedCall& operator=(const MountedCall&) = delete;

    // ---- The inner client's side.

    // Blocks until the outer handler settles `request`: its answer, or mcp::Error when none can come.
    // `round_key`: a 2026 inner server's input request, which the inner client knows to be this
    // call's (CallOptions::elicitation), under the key the inner server named it by; empty for a
    // 2025 server's request routed here.
    OuterAnswer ask(InnerRequest request, const std::string& round_key = {});
    // The inner call's end.
    void finish(std::exception_ptr error, CallToolResult result);
    // What the inner call stops with: abandon() triggers it.
    std::stop_token stop_token() const { return stop_.get_token(); }

    // ---- The outer handler's side.

    // An inner request waiting for its answer, under the key that names it to a 2026 outer client:
    // the inner server's own, else `elicitation-<n>` or `sampling-<n>` in the order asked.
    struct Question {
        std::string key;
        InnerRequest request;
        bool in_round = false;
    };
    // Waits for the oldest unsettled request, or for the inner call's end (nothing).
    std::optional<Question> next();
    // Whether next() would return at once, after waiting up to `timeout` for it.
    bool ready_within(std::chrono::milliseconds timeout);
    // Settles the oldest request.
    void answer(OuterAnswer answer);
    void refuse(int code, std::string message);
    // After next() returned nothing: the inner call's result, or what it failed with.
    CallToolResult result();
    // Cancels the inner call and refuses every request still waiting.
    void abandon(const std::string& why);

    // Inner progress becomes the outer call's while a run of its handler is attached (the Context
    // is that run's); progress that comes between runs, or after the last, is dropped.
    void attach(Context* ctx);
    void progress(const Progress& p);

private:
    struct Waiting {
        Question question;
        std::optional<OuterAnswer> answer;
        std::optional<std::pair<int, std::string>> refusal;
    };
    void settle_front(std::optional<OuterAnswer> answer, std::optional<std::pair<int, std::string>> refusal);
    void refuse_all(const std::string& why);                              // mutex_ held
    std::string key_for(const char* kind, const std::string& round_key);  // mutex_ held

    const bool relays_;
    std::mutex progress_mutex_;
    Context* ctx_ = nullptr;
    std::stop_source stop_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<Waiting>> waiting_;
    int asked_ = 0;               // keys the mount made so far
    std::set<std::string> keys_;  // every key given to a request of this call
    bool done_ = false;
    std::exception_ptr error_;
    CallToolResult result_;
    std::string abandoned_;  // why, once abandoned
};

}  // namespace mcp::detail
