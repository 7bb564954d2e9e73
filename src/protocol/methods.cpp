#include "protocol/methods.hpp"

#include <array>

namespace mcp::detail {

namespace {

constexpr std::array kMethods{
    // Lifecycle and session state (2025-11-25 and earlier).
    MethodInfo{.name = "initialize", .eras = Eras::sessions, .before_initialize = true, .opens_session = true},
    MethodInfo{.name = "ping", .eras = Eras::sessions, .before_initialize = true},
    MethodInfo{.name = "logging/setLevel", .eras = Eras::sessions},
    MethodInfo{.name = "resources/subscribe", .eras = Eras::sessions},
    MethodInfo{.name = "resources/unsubscribe", .eras = Eras::sessions},
    // Stateless (2026-07-28).
    MethodInfo{.name = "server/discover", .eras = Eras::stateless, .cache = Cache::list},
    MethodInfo{.name = "subscriptions/listen", .eras = Eras::stateless, .streams = true},
    // Both.
    MethodInfo{.name = "tools/list", .cache = Cache::list},
    MethodInfo{.name = "tools/call", .user_code = true, .rounds = true, .entity_param = "name"},
    MethodInfo{.name = "prompts/list", .cache = Cache::list},
    MethodInfo{.name = "prompts/get", .user_code = true, .rounds = true, .entity_param = "name"},
    MethodInfo{.name = "resources/list", .cache = Cache::list},
    MethodInfo{.name = "resources/templates/list", .cache = Cache::list},
    MethodInfo{
        .name = "resources/read", .user_code = true, .rounds = true, .entity_param = "uri", .cache = Cache::read},
    MethodInfo{.name = "completion/complete", .user_code = true},
    // Tasks: the 2026 extension (SEP-2663) and the 2025 experimental utility. On the handler pool:
    // they read a store that may be remote, and tasks/result waits.
    MethodInfo{.name = "tasks/get", .user_code = true, .entity_param = "taskId"},
    MethodInfo{.name = "tasks/cancel", .user_code = true, .entity_param = "taskId"},
    MethodInfo{.name = "tasks/update", .eras = Eras::stateless, .user_code = true, .entity_param = "taskId"},
    MethodInfo{.name = "tasks/result", .eras = Eras::sessions, .user_code = true},
    MethodInfo{.name = "tasks/list", .eras = Eras::sessions, .user_code = true},
    // Client notifications.
    MethodInfo{.name = "notifications/initialized", .notification = true, .eras = Eras::sessions},
    MethodInfo{.name = "notifications/cancelled", .notification = true},
    MethodInfo{.name = "notifications/roots/list_changed", .notification = true, .eras = Eras::sessions},
};

// Methods of the 2025-11-25 and 2026-07-28 schemas that mcp-cpp does not serve: sent by the server.
constexpr std::array<std::string_view, 3> kUnservedSpecMethods{
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
};

// The first segment of every protocol method, and areas official extensions reserve: skills/
// (SEP-2640) and ui/ (MCP Apps, host and view).
constexpr std::array<std::string_view, 14> kProtocolAreas{
    "completion", "elicitation", "logging",       "notifications", "prompts", "resources", "roots",
    "sampling",   "server",      "subscriptions", "skills",        "tasks",   "tools",     "ui",
};

}  // namespace

std::span<const MethodInfo> all_methods() { return kMethods; }

bool protocol_method_name(std::string_view name) {
    if (find_method_info(name) != nullptr || name.starts_with("rpc.")) return true;
    for (auto m : kUnservedSpecMethods) {
        if (m == name) return true;
    }
    const auto area = name.substr(0, name.find('/'));
    for (auto a : kProtocolAreas) {
        if (a == area) return true;
    }
    return false;
}

const MethodInfo* find_method_info(std::string_view name) {
    for (const auto& m : kMethods) {
        if (m.name == name) return &m;
    }
    return nullptr;
}

}  // namespace mcp::detail
