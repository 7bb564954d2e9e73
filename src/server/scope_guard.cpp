#include "server/scope_guard.hpp"

#include <mcp/server/interceptor.hpp>

#include "server/call.hpp"
#include "server/dispatch.hpp"

#include <algorithm>

namespace mcp::detail {

std::string_view target_of(const CallState& call) {
    if (call.method == nullptr || call.method->info->entity_param.empty()) return {};
    const auto* value = call.params().if_contains(call.method->info->entity_param);
    return value != nullptr && value->is_string() ? std::string_view(value->get_string()) : std::string_view();
}

bool holds_scopes(const Principal& principal, const std::vector<std::string>& required) {
    return std::all_of(required.begin(), required.end(), [&](const std::string& scope) {
        return std::find(principal.scopes.begin(), principal.scopes.end(), scope) != principal.scopes.end();
    });
}

void check_scopes(const Principal* principal, const std::vector<std::string>& required) {
    if (principal == nullptr || holds_scopes(*principal, required)) return;
    std::string missing;
    boost::json::array needed;
    for (const auto& scope : required) {
        needed.emplace_back(scope);
        if (std::find(principal->scopes.begin(), principal->scopes.end(), scope) == principal->scopes.end()) {
            missing += (missing.empty() ? "" : " ") + scope;
        }
    }
    throw Refusal(403, error_code::forbidden, "Forbidden: the token lacks the scope " + missing, {},
                  boost::json::object{{"requiredScopes", std::move(needed)}})
        .needs_scopes(required);
}

}  // namespace mcp::detail
