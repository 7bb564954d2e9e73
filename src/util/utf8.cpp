#include "util/utf8.hpp"

namespace mcp::detail {

namespace {

// The length of the well-formed sequence at text[i], or 0.
std::size_t sequence_at(std::string_view text, std::size_t i) {
    Utf8Checker checker;
    for (std::size_t n = 0; i + n < text.size();) {
        if (!checker.feed(static_cast<unsigned char>(text[i + n]))) return 0;
        ++n;
        if (checker.complete()) return n;
    }
    return 0;  // cut short
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
