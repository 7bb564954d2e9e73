// The sealed tokens a client hands back (ADR 0008): requestState, list cursors and SSE event ids,
// opened with a fixed key. The first byte picks what the rest is:
//   0: a token as a client sends it, opened for every purpose (what an attacker without the key
//      can reach: decoding, the key id, the length checks, authentication);
//   1: a plaintext sealed with the key and opened again by each token's own reader (what reaches
//      the payload parsers: a node with the same key and another version, or a stolen key);
//   2: the text of a secret file (--secret-file, MCP_SECRET).
#include <mcp/protocol/errors.hpp>
#include <mcp/security/key_ring.hpp>

#include "fuzz_check.hpp"
#include "server/client_requests/request_state.hpp"
#include "server/cursor.hpp"
#include "sessions/resumable_stream.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

const mcp::KeyRing& key_ring() {
    // Two keys: the active one and an older one still accepted, as during a rotation.
    static const mcp::KeyRing ring = mcp::KeyRing::parse(
        "fuzz-active:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n"
        "fuzz-old:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=\n");
    return ring;
}

constexpr std::chrono::milliseconds kStateTtl{15 * 60'000};

void open_every_way(const mcp::KeyRing& keys, std::string_view token) {
    try {
        (void)mcp::detail::open_request_state(keys, token, kStateTtl);
    } catch (const mcp::InvalidParams&) {}
    try {
        (void)mcp::detail::decode_cursor(keys, "tools", "", token);
    } catch (const mcp::InvalidParams&) {}
    (void)mcp::detail::open_event_id(keys, token);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    const auto& keys = key_ring();
    switch (data[0] % 3) {
        case 0:
            for (std::string_view purpose : {"request-state", "sse-event", "server-request", "cursor:tools\n"})
                (void)keys.open(purpose, rest);
            open_every_way(keys, rest);
            break;
        case 1: {
            for (std::string_view purpose : {"request-state", "sse-event"})
                FUZZ_CHECK(keys.open(purpose, keys.seal(purpose, rest)) == std::string(rest));
            // Another purpose's token never opens.
            FUZZ_CHECK(!keys.open("sse-event", keys.seal("request-state", rest)));
            open_every_way(keys, keys.seal("request-state", rest));
            open_every_way(keys, keys.seal("sse-event", rest));
            const auto cursor = mcp::detail::encode_cursor(keys, "tools", "", rest);
            FUZZ_CHECK(mcp::detail::decode_cursor(keys, "tools", "", cursor) == rest);
            break;
        }
        default: try { (void)mcp::KeyRing::parse(rest);
            } catch (const std::invalid_argument&) {}
    }
    return 0;
}
