#pragma once
// The names a ClientGroup exposes for the tools or prompts of all its servers (group.hpp, "Names").
#include <mcp/client/group.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct ListedName {
    std::string_view server;
    std::string_view name;
};

// "<server>_<name>", the server's name reduced to letters, digits, '_' and '-'.
std::string prefixed_name(std::string_view server, std::string_view name);

// One exposed name per entry, in order: the hook's, else the rule's. An entry whose name is still
// another's afterwards gets an empty one (it is left out; both, so that neither wins by order).
std::vector<std::string> assign_names(const std::vector<ListedName>& entries, ListKind kind, GroupNaming naming,
                                      const std::function<std::string(const NameRequest&)>& hook);

}  // namespace mcp::detail
