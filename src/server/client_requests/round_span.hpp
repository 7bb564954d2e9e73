#pragma once
// The spans of a 2025 call's requests to its client (docs/adr/0030-tracing.md). Each request
// (elicitation/create, sampling/createMessage, roots/list) is a CLIENT span, a child of the call's
// SERVER span, from its sending to its answer, timeout or drop. The node the client POSTs the
// answer to (this one, or another over the shared mailbox) records a SERVER span of taking the
// answer in, a child of that CLIENT span: the request's sealed id carries the span's context, so
// that node continues the trace without a store round trip.
#include "telemetry/span.hpp"

#include <boost/json/fwd.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace mcp {
class Session;
}

namespace mcp::detail {

struct CallState;
struct ServerCore;

using SpanPtr = std::unique_ptr<telemetry::SpanData>;

// A request about to go to the client: its span, or null when the call is not traced. The span
// replaces the call's own as the traceparent in params._meta, so the client's spans nest under it.
SpanPtr begin_request_span(const CallState& call, std::string_view method, boost::json::object& params);

// What the request's sealed id carries for the node its answer reaches: the span's traceparent
// and the method; empty without a span.
std::string answer_trace_note(const telemetry::SpanData* span, std::string_view method);

// The request's id, once sealed (it holds the note, so it comes after the span).
void set_request_id(telemetry::SpanData* span, std::string_view id);

enum class Unanswered { timeout, cancelled };

// The request's span ends with the client's response message (an error response is an error), or
// with no answer; nothing without a span.
void end_request_span(ServerCore& core, SpanPtr span, const boost::json::value& answer);
void end_request_span(ServerCore& core, SpanPtr span, Unanswered why);

// On the node the answer reached: the span of taking it in, or null when this node does not trace
// or the request was not traced (`note` is answer_trace_note's text, possibly empty).
SpanPtr begin_answer_span(const ServerCore& core, std::string_view note, std::string_view id,
                          const boost::json::value& answer);
// `delivered`: someone expected the answer (here or on another node).
void end_answer_span(ServerCore& core, SpanPtr span, const Session& session, bool delivered);

}  // namespace mcp::detail
