#include "server/trace_context.hpp"

#include "telemetry/ids.hpp"
#include "telemetry/traceparent.hpp"

#include <algorithm>

namespace mcp {

std::string TraceContext::child_traceparent() const {
    if (trace_id.empty() || span_id.empty()) return {};
    // The caller's flags (sampled or not) go on; a traceparent of another version is passed on as
    // version 00, the one this server speaks.
    const std::string_view flags = traceparent.size() >= 55 ? std::string_view(traceparent).substr(53, 2)
                                   : sampled                ? "01"
                                                            : "00";
    std::string child;
    child.reserve(55);
    child.append("00-").append(trace_id.view()).append("-").append(span_id.view()).append("-").append(flags);
    return child;
}

namespace detail {

namespace {

constexpr std::size_t kMaxTracestate = 512;  // what the specification asks every vendor to pass on

// Printable ASCII within the bound; otherwise it is not passed on.
bool acceptable_tracestate(std::string_view ts) {
    return ts.size() <= kMaxTracestate &&
           std::all_of(ts.begin(), ts.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

}  // namespace

TraceContext start_span(std::string_view traceparent, std::string_view tracestate) {
    if (!telemetry::parse_traceparent(traceparent)) return {};
    TraceContext trace;
    trace.traceparent = traceparent;
    if (acceptable_tracestate(tracestate)) trace.tracestate = tracestate;
    trace.trace_id = traceparent.substr(3, 32);
    trace.span_id = HexId<16>(telemetry::hex_digits(telemetry::random_span_id()));
    return trace;
}

void pass_on(const TraceContext& trace, boost::json::object& params) {
    auto child = trace.child_traceparent();
    if (child.empty()) return;
    auto& meta = params["_meta"];
    if (!meta.is_object()) meta = boost::json::object();
    meta.as_object()["traceparent"] = child;
    if (!trace.tracestate.empty()) meta.as_object()["tracestate"] = trace.tracestate;
}

}  // namespace detail
}  // namespace mcp
