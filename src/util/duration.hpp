#pragma once
// Durations in configuration: a number with a unit, "250ms", "20s", "5m", "1h".
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);
std::string format_duration(std::chrono::milliseconds d);

}  // namespace mcp::detail
