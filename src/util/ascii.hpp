#pragma once
// HTTP names and tokens are ASCII: comparing them needs no locale.
#include <string_view>

namespace mcp::detail {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
inline bool ascii_iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i] && ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    }
    return true;
}

// Spaces and tabs off both ends (HTTP's optional whitespace, a .env line's blanks). A loop, not
// find_first_not_of, which searches its set for each character: the HTTP endpoint trims a dozen
// header values per request.
constexpr std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace mcp::detail
