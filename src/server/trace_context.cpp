#include "server/trace_context.hpp"

#include <algorithm>
#include <random>

namespace mcp {

std::string TraceContext::child_traceparent() const {
    if (trace_id.empty() || span_id.empty()) return {};
    // The caller's flags (sampled or not) go on; a traceparent of another version is passed on as
    // version 00, the one this server speaks.
    const std::string_view flags = traceparent.size() >= 55 ? std::string_view(traceparent).substr(53, 2)
                                   : sampled                ? "01"
                                                            : "00";
    return "00-" + trace_id + "-" + span_id + "-" + std::string(flags);
}

namespace detail {

namespace {

constexpr std::size_t kTraceparentLength = 55;  // version 00
constexpr std::size_t kMaxTracestate = 512;     // what the specification asks every vendor to pass on

bool lower_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool all_zero(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c == '0'; });
}

// version-traceid-parentid-flags; a later version may append fields after another '-'.
bool well_formed(std::string_view tp) {
    if (tp.size() < kTraceparentLength || tp[2] != '-' || tp[35] != '-' || tp[52] != '-') return false;
    const auto version = tp.substr(0, 2);
    if (!lower_hex(version) || version == "ff") return false;
    if (version == "00" ? tp.size() != kTraceparentLength : tp.size() > kTraceparentLength && tp[55] != '-')
        return false;
    const auto trace_id = tp.substr(3, 32);
    const auto parent_id = tp.substr(36, 16);
    return lower_hex(trace_id) && !all_zero(trace_id) && lower_hex(parent_id) && !all_zero(parent_id) &&
           lower_hex(tp.substr(53, 2));
}

// Printable ASCII within the bound; otherwise it is not passed on.
bool acceptable_tracestate(std::string_view ts) {
    return ts.size() <= kMaxTracestate &&
           std::all_of(ts.begin(), ts.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

// 16 random hex digits, not all zero. Span ids need to be unique, not secret.
std::string new_span_id() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    static constexpr char digits[] = "0123456789abcdef";
    std::uint64_t bits = 0;
    while (bits == 0) bits = random();
    std::string id(16, '0');
    for (auto& c : id) {
        c = digits[bits & 0xf];
        bits >>= 4;
    }
    return id;
}

}  // namespace

TraceContext start_span(std::string_view traceparent, std::string_view tracestate) {
    if (!well_formed(traceparent)) return {};
    TraceContext trace;
    trace.traceparent = traceparent;
    if (acceptable_tracestate(tracestate)) trace.tracestate = tracestate;
    trace.trace_id = traceparent.substr(3, 32);
    trace.span_id = new_span_id();
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
