#include "util/percent_encoding.hpp"

namespace mcp::detail {

std::optional<std::string> percent_decoded(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (!percent_escape_at(s, i)) return std::nullopt;
        out += static_cast<char>(percent_escaped_byte(s, i));
        i += 2;
    }
    return out;
}

}  // namespace mcp::detail
