#include <mcp/server/detail/from_string.hpp>

#include <mcp/protocol/errors.hpp>

#include <charconv>
#include <cmath>

namespace mcp::detail {

namespace {

[[noreturn]] void fail(std::string_view what, std::string_view expected, std::string_view text) {
    throw InvalidParams(std::string(what) + ": expected " + std::string(expected) + ", got \"" + std::string(text) +
                        "\"");
}

}  // namespace

std::int64_t parse_int64(std::string_view text, std::string_view what, std::int64_t lo, std::int64_t hi) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) fail(what, "an integer", text);
    if (v < lo || v > hi) fail(what, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", text);
    return v;
}

std::uint64_t parse_uint64(std::string_view text, std::string_view what, std::uint64_t hi) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        fail(what, "a non-negative integer", text);
    if (v > hi) fail(what, "an integer in [0, " + std::to_string(hi) + "]", text);
    return v;
}

double parse_double(std::string_view text, std::string_view what) {
    double v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty() || !std::isfinite(v)) {
        fail(what, "a number", text);
    }
    return v;
}

bool parse_bool(std::string_view text, std::string_view what) {
    if (text == "true") return true;
    if (text == "false") return false;
    fail(what, "true or false", text);
}

void fail_enum(std::string_view text, std::string_view what) { fail(what, "one of the allowed values", text); }

}  // namespace mcp::detail
