#pragma once
// A request's spans (docs/adr/0030-tracing.md): one SERVER span per JSON-RPC request, named and
// described by the MCP semantic conventions, and an INTERNAL span around each run of its handler.
// Only with a tracer and a sampled trace; otherwise these do nothing.
#include "server/call_metrics.hpp"

#include <mcp/server/request_context.hpp>

#include <boost/json/fwd.hpp>

#include <cstdint>
#include <exception>

namespace mcp {
struct InboundNetwork;
}
namespace mcp::telemetry {
struct SpanData;
}

namespace mcp::detail {

struct CallState;

// Sets call.trace (the caller's trace and a span id in it, or a new trace) and, when the trace is
// sampled, starts call.span with the connection's attributes. `trace` is what the request carried
// (trace_of in dispatch.cpp), `network` what the transport knows of the connection.
void begin_server_span(CallState& call, TraceContext trace, const InboundNetwork& network);
// Names the span, adds what the request and its answer say, and hands it to the exporter.
// `answer_code`: the answer's JSON-RPC code (0: none), recorded with the message of `response`
// when it is given.
void end_server_span(CallState& call, Outcome outcome, int answer_code, const boost::json::value* response);

// The handler's span, a child of the server span, around one run of the handler; `failure` is
// what the handler threw, if anything.
void begin_handler_span(CallState& call);
void end_handler_span(CallState& call, const std::exception_ptr& failure);

// 2026: this round of a multi-round call ends asking the client: an event `input_request` per
// request (its method and key) on the SERVER span. Each round is a request with its own span; the
// client's context ties the rounds into one trace.
void record_input_requests(CallState& call);

// An error response's JSON-RPC code (error.type, rpc.response.status_code) and its message
// (`response` may be null) on a span, whose status becomes ERROR.
void set_error_code(telemetry::SpanData& span, std::int64_t code, const boost::json::value* response);

// The span a handler's Context adds to: its own while it runs, else the request's; null when the
// request is not traced.
telemetry::SpanData* current_span(CallState& call);
// The traceparent for what the handler calls: its run's span as the parent when one is recorded,
// else the request's (TraceContext::child_traceparent); empty without a trace.
std::string child_traceparent(const CallState& call);

}  // namespace mcp::detail
