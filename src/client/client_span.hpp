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

// Null when the trace is not sampled; params._meta gets the traceparent either way, so the
// server follows the decision.
std::unique_ptr<telemetry::SpanData> begin_client_span(const telemetry::Tracer& tracer, std::string_view method,
                                                       const CallOptions& options, boost::json::object& params);
// Without a tracer: the caller's trace (CallOptions::trace) put in params._meta as it is, so the
// server continues it though this hop records nothing.
void pass_trace_on(const CallOptions::Trace& trace, boost::json::object& params);
// Names the span, records the outcome and the negotiated version, and exports it.
void end_client_span(telemetry::Tracer& tracer, telemetry::SpanData& span, const Outcome& outcome,
                     std::string_view protocol_version);

}  // namespace mcp::detail
