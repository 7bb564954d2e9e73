#pragma once
// Every MCP method mcp-cpp serves, requests and client notifications, with what the protocol says
// about each: the one table the classifier, the routing-header checks, the transports and the core's
// dispatcher read. Adding a method starts here (CONTRIBUTING.md, "Adding a protocol method").
#include <mcp/protocol/revision.hpp>

#include <cstdint>
#include <span>
#include <string_view>

namespace mcp::detail {

// The revisions a method exists in.
enum class Eras : std::uint8_t { sessions = 1, stateless = 2, both = 3 };

// The caching hints (ttlMs, cacheScope) a 2026-07-28 result carries.
enum class Cache : std::uint8_t { none, list, read };

struct MethodInfo {
    std::string_view name;
    bool notification = false;  // sent by the client without an id
    Eras eras = Eras::both;
    // 2025 session rules: allowed before initialize; creates the session (initialize).
    bool before_initialize = false;
    bool opens_session = false;
    // Runs an application handler: on the handler pool, unless the handler was declared runs_inline.
    bool user_code = false;
    // Answered with a long-lived stream of notifications that ends only with the client
    // (subscriptions/listen).
    bool streams = false;
    // Takes inputResponses/requestState and may answer input_required (2026 multi-round trips).
    bool rounds = false;
    // The param that names the entity acted on, mirrored in the Mcp-Name header (2026 HTTP).
    std::string_view entity_param;
    Cache cache = Cache::none;

    bool exists_in(Era era) const {
        const auto bit = era == Era::sessions ? Eras::sessions : Eras::stateless;
        return (static_cast<std::uint8_t>(eras) & static_cast<std::uint8_t>(bit)) != 0;
    }
};

// nullptr for a method mcp-cpp does not serve.
const MethodInfo* find_method_info(std::string_view name);
std::span<const MethodInfo> all_methods();

// Whether a name belongs to the protocol, so that an application's own method may not take it: a
// method of either revision's schema (served here or not, such as sampling/createMessage), or a name in one of the
// protocol's areas ("tools/...", "notifications/...") or in an area an official extension reserves ("skills/...",
// "ui/..."), or JSON-RPC's "rpc.".
bool protocol_method_name(std::string_view name);

}  // namespace mcp::detail
