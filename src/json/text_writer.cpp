#include "json/text_writer.hpp"

#include <boost/json/serializer.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mcp::detail {

namespace {

// Below this nesting the walk recurses; a deeper value (one an application built: parsed ones
// are bounded far lower) goes to Boost.JSON's serializer, which keeps its stack on the heap.
constexpr int kMaxRecursion = 64;

// What json_text reserves before it writes.
constexpr std::size_t kFirstReserve = 480;

// A plain string up to this long is quoted on the stack and appended once.
constexpr std::size_t kShortString = 128;

// What each byte becomes inside a JSON string: 0 as is, 'u' as \u00XX, else \ and that letter.
constexpr std::array<char, 256> kEscapes = [] {
    std::array<char, 256> table{};
    for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = 'u';
    table['\b'] = 'b';
    table['\f'] = 'f';
    table['\n'] = 'n';
    table['\r'] = 'r';
    table['\t'] = 't';
    table['"'] = '"';
    table['\\'] = '\\';
    return table;
}();

#if defined(__SSE2__)
// A bit for each of the 16 bytes at `p` that JSON escapes (a control character, quote or backslash).
unsigned escaped_bytes(const char* p) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes);
    const __m128i quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'));
    const __m128i backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(control, _mm_or_si128(quote, backslash))));
}

// How many bytes at the start of `string` JSON writes as they are: sixteen at a time, a short
// string padded to sixteen with plain bytes, the tail as the last sixteen (overlapping).
std::size_t plain_prefix(std::string_view string) {
    const std::size_t size = string.size();
    if (size < 16) {
        char padded[16];
        std::memset(padded, ' ', sizeof padded);
        std::memcpy(padded, string.data(), size);
        const unsigned escaped = escaped_bytes(padded);
        return escaped == 0 ? size : static_cast<std::size_t>(std::countr_zero(escaped));
    }
    std::size_t i = 0;
    for (; size - i >= 16; i += 16) {
        if (const unsigned escaped = escaped_bytes(string.data() + i); escaped != 0)
            return i + static_cast<std::size_t>(std::countr_zero(escaped));
    }
    if (i == size) return size;
    // The bytes before i are plain, so the first escaped one of the last sixteen is at i or after.
    const unsigned escaped = escaped_bytes(string.data() + size - 16);
    return escaped == 0 ? size : size - 16 + static_cast<std::size_t>(std::countr_zero(escaped));
}
#else
// How many bytes at the start of `string` JSON writes as they are, eight at a time with the "has a
// byte below n" bit trick.
std::size_t plain_prefix(std::string_view string) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
    std::size_t i = 0;
    for (std::uint64_t word = 0; string.size() - i >= 8; i += 8) {
        std::memcpy(&word, string.data() + i, 8);
        const std::uint64_t quote = word ^ (kOnes * '"');
        const std::uint64_t backslash = word ^ (kOnes * '\\');
        const std::uint64_t below_space = (word - kOnes * 0x20) & ~word;
        const std::uint64_t is_quote = (quote - kOnes) & ~quote;
        const std::uint64_t is_backslash = (backslash - kOnes) & ~backslash;
        if (((below_space | is_quote | is_backslash) & kHighs) != 0) break;
    }
    while (i < string.size() && kEscapes[static_cast<unsigned char>(string[i])] == 0) ++i;
    return i;
}
#endif

void append_with_serializer(std::string& out, const boost::json::value& value) {
    boost::json::serializer writer;
    writer.reset(&value);
    char buffer[512];
    while (!writer.done()) out += writer.read(buffer, sizeof buffer);
}

template <class Integer>
void append_integer(std::string& out, Integer n) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out.append(digits, end);
}

void append_value(std::string& out, const boost::json::value& value, int depth);

void append_object_members(std::string& out, const boost::json::object& object, int depth) {
    bool first = true;
    for (const auto& member : object) {
        if (!first) out += ',';
        first = false;
        append_json(out, std::string_view(member.key()));
        out += ':';
        append_value(out, member.value(), depth + 1);
    }
}

void append_object(std::string& out, const boost::json::object& object, int depth) {
    out += '{';
    append_object_members(out, object, depth);
    out += '}';
}

void append_value(std::string& out, const boost::json::value& value, int depth) {
    if (depth > kMaxRecursion && (value.is_object() || value.is_array())) {
        append_with_serializer(out, value);
        return;
    }
    switch (value.kind()) {
        case boost::json::kind::null: out += "null"; break;
        case boost::json::kind::bool_: out += value.get_bool() ? "true" : "false"; break;
        case boost::json::kind::int64: append_integer(out, value.get_int64()); break;
        case boost::json::kind::uint64: append_integer(out, value.get_uint64()); break;
        case boost::json::kind::double_: append_with_serializer(out, value); break;
        case boost::json::kind::string: append_json(out, std::string_view(value.get_string())); break;
        case boost::json::kind::array: {
            out += '[';
            bool first = true;
            for (const auto& element : value.get_array()) {
                if (!first) out += ',';
                first = false;
                append_value(out, element, depth + 1);
            }
            out += ']';
            break;
        }
        case boost::json::kind::object: append_object(out, value.get_object(), depth); break;
    }
}

}  // namespace

void append_json(std::string& out, const boost::json::value& value) { append_value(out, value, 0); }

void append_json(std::string& out, const boost::json::object& object) { append_object(out, object, 0); }

std::string json_text(const boost::json::value& value) {
    std::string text;
    // A typical message in one allocation, not grown four times; a scalar in the string itself.
    if (value.is_object() || value.is_array()) text.reserve(kFirstReserve);
    append_value(text, value, 0);
    return text;
}

void append_json(std::string& out, std::string_view string) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::size_t i = plain_prefix(string);
    if (i == string.size() && string.size() <= kShortString) {
        // Most strings are short and plain: quoted on the stack, appended in one go.
        char quoted[kShortString + 2];
        quoted[0] = '"';
        std::memcpy(quoted + 1, string.data(), string.size());
        quoted[string.size() + 1] = '"';
        out.append(quoted, string.size() + 2);
        return;
    }
    out += '"';
    out.append(string.data(), i);
    for (; i < string.size(); ++i) {
        const auto byte = static_cast<unsigned char>(string[i]);
        const char escape = kEscapes[byte];
        if (escape == 0) {
            out += string[i];
            continue;
        }
        out += '\\';
        out += escape;
        if (escape == 'u') {
            out += "00";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xF];
        }
    }
    out += '"';
}

void append_members(std::string& out, const boost::json::object& object) { append_object_members(out, object, 0); }

}  // namespace mcp::detail
