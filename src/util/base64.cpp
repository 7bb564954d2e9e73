#include "util/base64.hpp"

#include <array>
#include <cstdint>

namespace mcp::detail {

namespace {

constexpr char kStd[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode(std::span<const unsigned char> in, const char* alphabet, bool pad) {
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= in.size(); i += 3) {
        std::uint32_t n = (in[i] << 16) | (in[i + 1] << 8) | in[i + 2];
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    const std::size_t rest = in.size() - i;
    if (rest == 1) {
        std::uint32_t n = in[i] << 16;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        if (pad) out += "==";
    } else if (rest == 2) {
        std::uint32_t n = (in[i] << 16) | (in[i + 1] << 8);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        if (pad) out += '=';
    }
    return out;
}

std::array<std::int8_t, 256> reverse(const char* alphabet) {
    std::array<std::int8_t, 256> table{};
    table.fill(-1);
    for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
    return table;
}

std::optional<std::string> decode(std::string_view text, const std::array<std::int8_t, 256>& table, bool padded) {
    if (padded) {
        if (text.size() % 4 != 0) return std::nullopt;
        std::size_t pads = 0;
        while (pads < 2 && pads < text.size() && text[text.size() - 1 - pads] == '=') ++pads;
        text.remove_suffix(pads);
    }
    if (text.size() % 4 == 1) return std::nullopt;
    std::string out;
    out.reserve(text.size() * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        const int v = table[static_cast<unsigned char>(c)];
        if (v < 0) return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    // Leftover bits must be zero, or two encodings would decode to the same bytes.
    if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) return std::nullopt;
    return out;
}

}  // namespace

std::string base64_encode(std::span<const unsigned char> bytes) { return encode(bytes, kStd, true); }
std::string base64url_encode(std::span<const unsigned char> bytes) { return encode(bytes, kUrl, false); }

std::optional<std::string> base64_decode(std::string_view text) {
    static const auto table = reverse(kStd);
    return decode(text, table, true);
}

std::optional<std::string> base64url_decode(std::string_view text) {
    static const auto table = reverse(kUrl);
    return decode(text, table, false);
}

}  // namespace mcp::detail
