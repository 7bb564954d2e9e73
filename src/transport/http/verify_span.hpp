#pragma once
// The `verify token` span of a request whose bearer token the endpoint checks
// (docs/adr/0030-tracing.md, decision 11): INTERNAL, under the request's traceparent header (else
// the start of a trace), sampled parent-based, with a CLIENT child per request the check made to
// the authorization server. Once the token is taken, the request's traceparent names this span, so
// the SERVER span the core starts next is its child. A request that is not sampled allocates nothing
// here (but for a new trace's decision, handed down as a traceparent).
#include "auth/token_verifier.hpp"
#include "telemetry/span.hpp"

#include <memory>
#include <string_view>

namespace mcp {
struct TraceContext;
}
namespace mcp::telemetry {
class Tracer;
}

namespace mcp::detail {

class VerifySpan {
public:
    // `tracer` null: tracing is off and nothing is recorded. `trace`: the request's traceparent and
    // tracestate headers, as they came.
    VerifySpan(telemetry::Tracer* tracer, const TraceContext& trace);

    // Where the verifier records the requests it makes; null when the span is not recorded.
    const std::shared_ptr<FetchRecords>& fetches() const { return fetches_; }

    // The check refused the request (401, 403) or could not be made (503): `error_type` is the OAuth
    // error or what else refused it, `message` the reason. Ends and exports the span.
    void refused(std::string_view error_type, std::string_view message);
    // The token was taken: ends and exports the span, and makes `trace` (the request's) its child.
    void accepted(TraceContext& trace);

private:
    void finish();

    telemetry::Tracer* tracer_;
    std::unique_ptr<telemetry::SpanData> span_;  // set when sampled
    std::shared_ptr<FetchRecords> fetches_;      // set when sampled
    // A request without a (valid) traceparent starts a trace here, sampled or not, which the core
    // continues rather than deciding again.
    bool root_ = false;
    telemetry::TraceId root_trace_{};
};

// A URL as a span may show it (url.full): no user information, no query, no fragment.
std::string url_for_span(std::string_view url);

}  // namespace mcp::detail
