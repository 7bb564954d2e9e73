#pragma once
// The ${...} variables of a host configuration's string values (VS Code's, which Cursor shares).
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

struct VariableContext {
    std::string workspace_folder;
    std::function<std::optional<std::string>(const std::string& name)> environment;
};

// ${env:NAME} (empty when unset), ${workspaceFolder} and ${userHome} replaced; ${input:...} and
// ${command:...} (they need VS Code) and a ${workspaceFolder} without one throw
// std::invalid_argument naming the variable. Anything else is left as written: a "${HOME}" in an
// argument may be meant for a shell.
std::string substitute_variables(std::string_view value, const VariableContext& context);

}  // namespace mcp::detail
