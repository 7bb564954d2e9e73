#include "telemetry/traceparent.hpp"

#include "telemetry/ids.hpp"

#include <algorithm>

namespace mcp::telemetry {

namespace {

constexpr std::size_t kVersion00Length = 55;

bool lower_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

template <std::size_t N>
bool all_zero(const std::array<std::uint8_t, N>& id) {
    return std::all_of(id.begin(), id.end(), [](std::uint8_t b) { return b == 0; });
}

}  // namespace

std::optional<Traceparent> parse_traceparent(std::string_view text) {
    if (text.size() < kVersion00Length || text[2] != '-' || text[35] != '-' || text[52] != '-') return std::nullopt;
    const auto version = text.substr(0, 2);
    if (!lower_hex(version) || version == "ff") return std::nullopt;
    if (version == "00" ? text.size() != kVersion00Length
                        : text.size() > kVersion00Length && text[kVersion00Length] != '-')
        return std::nullopt;
    const auto trace_id = trace_id_from_hex(text.substr(3, 32));
    const auto parent_id = span_id_from_hex(text.substr(36, 16));
    const auto flags = text.substr(53, 2);
    if (!trace_id || !parent_id || all_zero(*trace_id) || all_zero(*parent_id) || !lower_hex(flags))
        return std::nullopt;
    const auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    return Traceparent{*trace_id, *parent_id, static_cast<std::uint8_t>((digit(flags[0]) << 4) | digit(flags[1]))};
}

std::string format_traceparent(const TraceId& trace_id, const SpanId& span_id, bool sampled) {
    return "00-" + to_hex(trace_id) + "-" + to_hex(span_id) + (sampled ? "-01" : "-00");
}

}  // namespace mcp::telemetry
