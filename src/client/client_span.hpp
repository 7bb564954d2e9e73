#pragma once
// A request's CLIENT span (docs/adr/0030-tracing.md): started when it leaves, its traceparent put
// in the request's _meta so the server continues the trace, ended when the request settles.
#include "client/peer.hpp"

#include <mcp/client/options.hpp>

#include <boost/json/object.hpp>

#include <memory>
#include <string_view>

namespace mcp::telemetry {
class Tracer;
struct SpanData;
}  // namespace mcp::telemetry

namespace mcp::detail {

// Null when the trace is not sampled (decided before a span is built); the request's _meta gets the
// traceparent either way (RequestSpec::trace), so the server follows the decision.
std::unique_ptr<telemetry::SpanData> begin_client_span(const telemetry::Tracer& tracer, std::string_view method,
                                                       const CallOptions& options, const boost::json::object& params,
                                                       RequestSpec& spec);
// Without a tracer: the caller's trace (CallOptions::trace) put in the request's _meta as it is, so
// the server continues it though this hop records nothing. A malformed one is not passed on.
void pass_trace_on(const CallOptions::Trace& trace, RequestSpec& spec);
// Names the span, records the outcome and the negotiated version, and exports it.
void end_client_span(telemetry::Tracer& tracer, telemetry::SpanData& span, const Outcome& outcome,
                     std::string_view protocol_version);

}  // namespace mcp::detail
