#include "util/utf8.hpp"

namespace mcp::detail {

namespace {

bool in(unsigned char c, unsigned char low, unsigned char high) { return c >= low && c <= high; }

// The length of the well-formed sequence at text[i], or 0.
std::size_t sequence_at(std::string_view text, std::size_t i) {
    const auto at = [&](std::size_t k) -> unsigned char { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0; };
    const unsigned char c = at(0);
    if (c < 0x80) return 1;
    if (in(c, 0xC2, 0xDF)) return in(at(1), 0x80, 0xBF) ? 2 : 0;
    if (in(c, 0xE0, 0xEF)) {
        const unsigned char low = c == 0xE0 ? 0xA0 : 0x80;  // no overlongs
        const unsigned char high = c == 0xED ? 0x9F : 0xBF;  // no surrogates
        return in(at(1), low, high) && in(at(2), 0x80, 0xBF) ? 3 : 0;
    }
    if (in(c, 0xF0, 0xF4)) {
        const unsigned char low = c == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = c == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
        return in(at(1), low, high) && in(at(2), 0x80, 0xBF) && in(at(3), 0x80, 0xBF) ? 4 : 0;
    }
    return 0;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (const auto n = sequence_at(text, i); n > 0) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            out.append("\xEF\xBF\xBD");
            ++i;
        }
    }
    return out;
}

}  // namespace mcp::detail
