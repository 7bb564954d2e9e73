#include "server/client_limits.hpp"

#include "server/call.hpp"
#include "server/call_metrics.hpp"
#include "server/call_observer.hpp"
#include "server/core.hpp"
#include "util/limit_report.hpp"

namespace mcp::detail {

namespace {

// What a client over a quota should wait: a held resource frees when its client lets it go, which
// no server can predict; a few seconds spare both sides a tight loop.
constexpr std::string_view kRetryAfterSeconds = "5";

}  // namespace

Refusal over_client_quota(std::string_view what) {
    return Refusal(
        429, error_code::rate_limited,
        "Too many " + std::string(what) + " for this client, try again in " + std::string(kRetryAfterSeconds) + " s",
        {{"Retry-After", std::string(kRetryAfterSeconds)}});
}

bool admit_client_call(const std::shared_ptr<CallState>& call) {
    const auto client = call->client();
    call->client_place = call->core.calls_by_client.try_take(client, call->core.options.clients.calls);
    if (call->client_place) return true;
    report_refusal(Bound::calls, Limit::client, client);
    const auto refusal = over_client_quota("calls in flight");
    const auto answering = call->untrack();
    auto response = jsonrpc::make_error(call->message.id, refusal.code(), refusal.message());
    observe_answer(*call, call->exchange->era(), Outcome::refused, refusal.code(), &response);
    call->sink->complete_refused(refusal, std::move(response));
    return false;
}

}  // namespace mcp::detail
