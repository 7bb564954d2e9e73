#pragma once
// W3C trace context's traceparent header (https://www.w3.org/TR/trace-context/): read, checked,
// and written for a child.
#include "telemetry/span.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcp::telemetry {

struct Traceparent {
    TraceId trace_id{};
    SpanId parent_id{};
    std::uint8_t flags = 0;  // bit 0: sampled
};

// version-traceid-parentid-flags; a version after 00 may append fields after another '-'. Nothing
// for anything not well-formed: upper-case hex, an all-zero id, version ff, a wrong length.
std::optional<Traceparent> parse_traceparent(std::string_view text);

// A version 00 traceparent.
std::string format_traceparent(const TraceId& trace_id, const SpanId& span_id, bool sampled);

}  // namespace mcp::telemetry
