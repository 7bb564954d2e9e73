// The SSE parser of the HTTP client: a server (or whatever answers on its port) sends these bytes.
// The input is fed whole and in pieces of sizes the input chooses, one pattern and another, under
// small limits and the real ones: every feeding must give the same events, the same last event
// id and retry, and fail alike. What it gives must hold to the rules: an event's type is never
// empty, no id holds a NUL, no type or id holds a line end, and no event is over its limit.
#include "fuzz_check.hpp"
#include "net/sse_parser.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mcp::net::SseError;
using mcp::net::SseEvent;
using mcp::net::SseLimits;
using mcp::net::SseParser;

struct Outcome {
    std::vector<SseEvent> events;
    std::string last_id;
    std::optional<long long> retry_ms;
    bool failed = false;
};

bool same(const Outcome& a, const Outcome& b) {
    if (a.failed != b.failed || a.last_id != b.last_id || a.retry_ms != b.retry_ms) return false;
    if (a.events.size() != b.events.size()) return false;
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const auto& x = a.events[i];
        const auto& y = b.events[i];
        if (x.type != y.type || x.data != y.data || x.id != y.id) return false;
    }
    return true;
}

// Pieces cycle through `sizes` (each 1 to 16 bytes); one piece of everything when it is empty.
Outcome parse(std::string_view input, std::string_view sizes, SseLimits limits) {
    Outcome out;
    SseParser parser([&](SseEvent&& e) { out.events.push_back(std::move(e)); }, limits);
    try {
        std::size_t turn = 0;
        while (!input.empty()) {
            const std::size_t piece =
                sizes.empty() ? input.size() : static_cast<unsigned char>(sizes[turn++ % sizes.size()]) % 16 + 1;
            parser.feed(input.substr(0, piece));
            input.remove_prefix(std::min(piece, input.size()));
        }
    } catch (const SseError&) {
        out.failed = true;  // the client drops the stream
    }
    out.last_id = parser.last_event_id();
    if (parser.retry()) out.retry_ms = parser.retry()->count();
    return out;
}

void check_rules(const Outcome& outcome, const SseLimits& limits) {
    for (const auto& event : outcome.events) {
        FUZZ_CHECK(!event.type.empty());
        FUZZ_CHECK(event.id.find('\0') == std::string::npos);
        FUZZ_CHECK(event.type.find_first_of("\r\n") == std::string::npos);
        FUZZ_CHECK(event.id.find_first_of("\r\n") == std::string::npos);
        FUZZ_CHECK(event.data.size() + event.type.size() <= limits.max_event_bytes);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte: how many of the next bytes give the piece sizes (0 to 7); the rest is the stream.
    const std::size_t pattern = std::min<std::size_t>(data[0] % 8, size - 1);
    const std::string_view sizes(reinterpret_cast<const char*>(data) + 1, pattern);
    const std::string_view input(reinterpret_cast<const char*>(data) + 1 + pattern, size - 1 - pattern);
    for (const SseLimits limits : {SseLimits{.max_line_bytes = 24, .max_event_bytes = 48}, SseLimits{}}) {
        const auto whole = parse(input, {}, limits);
        check_rules(whole, limits);
        FUZZ_CHECK(same(whole, parse(input, sizes, limits)));
        FUZZ_CHECK(same(whole, parse(input, std::string_view("\0", 1), limits)));  // byte by byte
    }
    return 0;
}
