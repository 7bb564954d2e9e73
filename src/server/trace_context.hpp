#pragma once
// W3C trace context (https://www.w3.org/TR/trace-context/): the caller's traceparent and
// tracestate checked, a span for each request, and the context passed on in the _meta of requests
// to the client.
#include <mcp/server/request_context.hpp>

#include <boost/json/object.hpp>

#include <string_view>

namespace mcp::detail {

// The request's context: the caller's trace with a new span id, or nothing when the traceparent
// is absent or not well-formed.
TraceContext start_span(std::string_view traceparent, std::string_view tracestate);

// Adds traceparent (this request as the parent) and tracestate to params._meta; nothing without a
// trace.
void pass_on(const TraceContext& trace, boost::json::object& params);

}  // namespace mcp::detail
