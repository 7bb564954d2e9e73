#include "client/config/variables.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

std::optional<std::string> lookup(const VariableContext& context, const std::string& name) {
    return context.environment ? context.environment(name) : std::nullopt;
}

std::string resolve(std::string_view variable, std::string_view name, const VariableContext& context) {
    if (name.starts_with("env:")) return lookup(context, std::string(name.substr(4))).value_or("");
    if (name == "workspaceFolder") {
        if (context.workspace_folder.empty())
            throw std::invalid_argument(std::string(variable) + " needs a workspace folder, and the host gave none");
        return context.workspace_folder;
    }
    if (name == "userHome") {
        auto home = lookup(context, "HOME");
        if (!home || home->empty())
            throw std::invalid_argument(std::string(variable) + " needs HOME, which is not set");
        return *home;
    }
    if (name.starts_with("input:"))
        throw std::invalid_argument(std::string(variable) +
                                    " is a VS Code input, which only the editor can ask for: write the value, or "
                                    "${env:NAME}, instead");
    if (name.starts_with("command:"))
        throw std::invalid_argument(std::string(variable) + " runs a VS Code command, which only the editor can do");
    return std::string(variable);
}

}  // namespace

std::string substitute_variables(std::string_view value, const VariableContext& context) {
    std::string out;
    std::size_t at = 0;
    while (true) {
        const auto open = value.find("${", at);
        const auto close = open == std::string_view::npos ? open : value.find('}', open + 2);
        if (close == std::string_view::npos) {
            out.append(value.substr(at));
            return out;
        }
        out.append(value.substr(at, open - at));
        out.append(resolve(value.substr(open, close + 1 - open), value.substr(open + 2, close - open - 2), context));
        at = close + 1;
    }
}

}  // namespace mcp::detail
