#pragma once
// W3C trace context as it goes from one process to the next (the traceparent and tracestate
// headers, or the same members of a request's _meta): what a server's handler hands the client it
// calls through (Context::outgoing_trace to CallOptions::trace).
#include <string>

namespace mcp::telemetry {

struct PropagatedTrace {
    std::string traceparent;  // empty: no trace
    std::string tracestate;
};

}  // namespace mcp::telemetry
