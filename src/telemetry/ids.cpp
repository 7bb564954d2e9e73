#include "telemetry/ids.hpp"

#include <algorithm>
#include <random>

namespace mcp::telemetry {

namespace {

// Ids need to be unique, not secret: a per-thread generator, never all zero (invalid in W3C).
template <std::size_t N>
std::array<std::uint8_t, N> random_id() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    std::array<std::uint8_t, N> id{};
    while (std::all_of(id.begin(), id.end(), [](std::uint8_t b) { return b == 0; })) {
        for (std::size_t i = 0; i < N; i += 8) {
            auto bits = random();
            for (std::size_t j = i; j < std::min(N, i + 8); ++j, bits >>= 8) id[j] = static_cast<std::uint8_t>(bits);
        }
    }
    return id;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> from_hex(std::string_view hex) {
    if (hex.size() != 2 * N) return std::nullopt;
    std::array<std::uint8_t, N> id{};
    for (std::size_t i = 0; i < N; ++i) {
        const int high = hex_digit(hex[2 * i]);
        const int low = hex_digit(hex[2 * i + 1]);
        if (high < 0 || low < 0) return std::nullopt;
        id[i] = static_cast<std::uint8_t>((high << 4) | low);
    }
    return id;
}

template <std::size_t N>
std::array<char, 2 * N> hex_of(const std::array<std::uint8_t, N>& id) {
    static constexpr char digits[] = "0123456789abcdef";
    std::array<char, 2 * N> text{};
    for (std::size_t i = 0; i < N; ++i) {
        text[2 * i] = digits[id[i] >> 4];
        text[2 * i + 1] = digits[id[i] & 0xf];
    }
    return text;
}

}  // namespace

TraceId random_trace_id() { return random_id<16>(); }
SpanId random_span_id() { return random_id<8>(); }
std::optional<TraceId> trace_id_from_hex(std::string_view hex) { return from_hex<16>(hex); }
std::optional<SpanId> span_id_from_hex(std::string_view hex) { return from_hex<8>(hex); }
std::string to_hex(const TraceId& id) { return std::string(hex_digits(id).data(), 32); }
std::string to_hex(const SpanId& id) { return std::string(hex_digits(id).data(), 16); }
std::array<char, 32> hex_digits(const TraceId& id) { return hex_of(id); }
std::array<char, 16> hex_digits(const SpanId& id) { return hex_of(id); }

}  // namespace mcp::telemetry
