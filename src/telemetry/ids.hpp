#pragma once
// Trace and span ids: random, and written as the lower-case hex of W3C traceparent and OTLP JSON.
#include "telemetry/span.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcp::telemetry {

TraceId random_trace_id();
SpanId random_span_id();

// 32 or 16 lower-case hex digits; nothing for anything else.
std::optional<TraceId> trace_id_from_hex(std::string_view hex);
std::optional<SpanId> span_id_from_hex(std::string_view hex);

std::string to_hex(const TraceId& id);
std::string to_hex(const SpanId& id);
// The same digits without an allocation.
std::array<char, 32> hex_digits(const TraceId& id);
std::array<char, 16> hex_digits(const SpanId& id);

}  // namespace mcp::telemetry
