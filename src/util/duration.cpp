#include "util/duration.hpp"

#include <charconv>
#include <cstdint>

namespace mcp::detail {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end == text.data()) return std::nullopt;
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    std::uint64_t scale = 0;
    if (unit == "ms")
        scale = 1;
    else if (unit == "s")
        scale = 1000;
    else if (unit == "m")
        scale = 60'000;
    else if (unit == "h")
        scale = 3'600'000;
    else
        return std::nullopt;
    if (n > UINT64_MAX / scale / 2) return std::nullopt;  // keep far from overflow
    return std::chrono::milliseconds(static_cast<std::int64_t>(n * scale));
}

std::string format_duration(std::chrono::milliseconds d) {
    const auto ms = d.count();
    if (ms != 0 && ms % 3'600'000 == 0) return std::to_string(ms / 3'600'000) + "h";
    if (ms != 0 && ms % 60'000 == 0) return std::to_string(ms / 60'000) + "m";
    if (ms != 0 && ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
}

}  // namespace mcp::detail
