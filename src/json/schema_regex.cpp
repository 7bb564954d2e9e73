// Bound on the states Boost.Regex may visit in one search when backtracking goes quadratic or
// worse (the library default, 1e8, takes around a second to reach). It only changes the
// instantiations over this file's private traits type, so other users of Boost.Regex are unaffected.
#ifndef BOOST_REGEX_MAX_STATE_COUNT
#define BOOST_REGEX_MAX_STATE_COUNT 10000000
#endif
#include "json/schema_regex.hpp"

#include <boost/regex.hpp>

#include <exception>
#include <stdexcept>

namespace mcp::json::schema_impl {

namespace {

struct CodePointTraits : boost::regex_traits<wchar_t> {};
using Regex = boost::basic_regex<wchar_t, CodePointTraits>;

// ECMA-262 without the m and s flags: ^/$ only at the ends of the input, '.' excludes newlines.
constexpr auto kSyntax =
    boost::regex_constants::ECMAScript | boost::regex_constants::no_mod_m | boost::regex_constants::no_mod_s;

// Decodes UTF-8 into code points (wchar_t is 32 bits on the supported platforms); each byte of an
// invalid sequence becomes U+FFFD. `out` needs room for s.size() code points. Returns the count.
std::size_t decode_utf8(std::string_view s, wchar_t* out) {
    static_assert(sizeof(wchar_t) >= 4, "code points must fit in wchar_t");
    std::size_t n = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        char32_t cp = 0;
        char32_t min = 0;
        if (c < 0x80) {
            len = 1, cp = c;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07, min = 0x10000;
        }
        bool valid = len != 0 && i + len <= s.size();
        for (std::size_t k = 1; valid && k < len; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            valid = (cc & 0xC0) == 0x80;
            cp = (cp << 6) | (cc & 0x3F);
        }
        valid = valid && cp >= min && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
        out[n++] = static_cast<wchar_t>(valid ? cp : 0xFFFD);
        i += valid ? len : 1;
    }
    return n;
}

int hex_value(wchar_t c) {
    if (c >= L'0' && c <= L'9') return c - L'0';
    if (c >= L'a' && c <= L'f') return c - L'a' + 10;
    if (c >= L'A' && c <= L'F') return c - L'A' + 10;
    return -1;
}

// Value of the 4 hex digits starting at p[at], or -1.
long hex4(const std::wstring& p, std::size_t at) {
    if (at + 4 > p.size()) return -1;
    long v = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        const int h = hex_value(p[at + k]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

void append_hex_escape(std::wstring& out, unsigned long cp) {
    out += L"\\x{";
    constexpr wchar_t kDigits[] = L"0123456789ABCDEF";
    wchar_t tmp[8];
    int n = 0;
    do {
        tmp[n++] = kDigits[cp % 16];
        cp /= 16;
    } while (cp != 0);
    while (n > 0) out += tmp[--n];
    out += L'}';
}

// Boost.Regex reads \u as a case-change escape: rewrite ECMA-262 \uXXXX (including surrogate
// pairs) and \u{X...} as \x{...}. Every other escape is kept verbatim.
std::wstring translate_escapes(const std::wstring& p) {
    std::wstring out;
    out.reserve(p.size());
    std::size_t i = 0;
    while (i < p.size()) {
        if (p[i] != L'\\' || i + 1 >= p.size()) {
            out += p[i++];
            continue;
        }
        if (p[i + 1] == L'u') {
            if (const long hi = hex4(p, i + 2); hi >= 0) {
                const long lo =
                    (hi >= 0xD800 && hi <= 0xDBFF && i + 7 < p.size() && p[i + 6] == L'\\' && p[i + 7] == L'u')
                        ? hex4(p, i + 8)
                        : -1;
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    append_hex_escape(out, 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                    i += 12;
                } else {
                    append_hex_escape(out, static_cast<unsigned long>(hi));
                    i += 6;
                }
                continue;
            }
            if (i + 2 < p.size() && p[i + 2] == L'{') {
                const std::size_t close = p.find(L'}', i + 3);
                if (close != std::wstring::npos && close > i + 3) {
                    out += L"\\x";
                    out.append(p, i + 2, close - i - 1);
                    i = close + 1;
                    continue;
                }
            }
        }
        out.append(p, i, 2);
        i += 2;
    }
    return out;
}

}  // namespace

struct Pattern::Compiled {
    Regex regex;
};

Pattern::Pattern(std::string_view source) : source_(source) {
    std::wstring wide(source.size(), L'\0');
    wide.resize(decode_utf8(source, wide.data()));
    const std::wstring translated = translate_escapes(wide);
    // Only a yes/no answer is needed, and without capture groups Boost.Regex keeps far less
    // backtracking state: with them, `^(a|b)*$` exhausts its memory bound from about 50 000
    // characters. Backreferences need the groups, so such patterns fail the first compile.
    try {
        compiled_ =
            std::make_unique<const Compiled>(Compiled{Regex(translated, kSyntax | boost::regex_constants::nosubs)});
        return;
    } catch (const std::exception&) {}
    try {
        compiled_ = std::make_unique<const Compiled>(Compiled{Regex(translated, kSyntax)});
    } catch (const std::exception& e) {
        throw std::invalid_argument(e.what());
    }
}

Pattern::~Pattern() = default;
Pattern::Pattern(Pattern&&) noexcept = default;
Pattern& Pattern::operator=(Pattern&&) noexcept = default;

Pattern::Result Pattern::search(std::string_view subject) const {
    // Short subjects are decoded on the stack; the common case allocates nothing here.
    constexpr std::size_t kInline = 256;
    wchar_t inline_buf[kInline];
    std::unique_ptr<wchar_t[]> heap;
    wchar_t* buf = inline_buf;
    if (subject.size() > kInline) {
        heap = std::make_unique_for_overwrite<wchar_t[]>(subject.size());
        buf = heap.get();
    }
    const std::size_t n = decode_utf8(subject, buf);
    try {
        return boost::regex_search(buf, buf + n, compiled_->regex) ? Result::match : Result::no_match;
    } catch (const std::exception&) {
        // Boost.Regex throws when a search exceeds its state or memory bounds.
        return Result::too_complex;
    }
}

}  // namespace mcp::json::schema_impl
