#pragma once
// Percent-encoding (RFC 3986 §2.1). Decoding is strict: '%' must be followed by two hex digits.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

// 0–15 for a hex digit of either case, -1 otherwise.
inline int hex_digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// True when s[i] is '%' followed by two hex digits.
inline bool percent_escape_at(std::string_view s, std::size_t i) {
    return s[i] == '%' && i + 2 < s.size() && hex_digit_value(s[i + 1]) >= 0 && hex_digit_value(s[i + 2]) >= 0;
}

// The byte of the valid escape at s[i].
inline unsigned char percent_escaped_byte(std::string_view s, std::size_t i) {
    return static_cast<unsigned char>(hex_digit_value(s[i + 1]) * 16 + hex_digit_value(s[i + 2]));
}

// Every escape decoded; nothing when one is malformed.
std::optional<std::string> percent_decoded(std::string_view s);

// Every byte but the unreserved ones (ALPHA DIGIT - . _ ~) escaped: safe in a form field, a query
// and an HTTP Basic credential (RFC 6749 §2.3.1).
std::string percent_encoded(std::string_view s);

}  // namespace mcp::detail
