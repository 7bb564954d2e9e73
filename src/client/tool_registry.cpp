#include "client/tool_registry.hpp"

#include "util/log.hpp"

#include <mcp/client/errors.hpp>

#include <stdexcept>

namespace mcp::detail {

bool ToolRegistry::learn(const Tool& tool) {
    Known known;
    known.runs_as_task = tool.task_support == "optional" || tool.task_support == "required";
    try {
        known.header_params = header_params_of(tool.input_schema);
    } catch (const std::invalid_argument& e) {
        log().warn("client: tool {} dropped from the listing: {}", printable(tool.name), e.what());
        return false;
    }
    if (tool.output_schema) {
        try {
            known.output = std::make_shared<const json::SchemaValidator>(boost::json::value(*tool.output_schema));
        } catch (const std::invalid_argument& e) {
            log().warn("client: the output schema of tool {} is not checked: {}", printable(tool.name), e.what());
        }
    }
    std::lock_guard lock(mutex_);
    tools_.insert_or_assign(tool.name, std::move(known));
    return true;
}

void ToolRegistry::forget_all() {
    std::lock_guard lock(mutex_);
    tools_.clear();
}

std::vector<std::pair<std::string, std::string>> ToolRegistry::param_headers(
    std::string_view tool, const boost::json::object& arguments) const {
    std::lock_guard lock(mutex_);
    auto it = tools_.find(tool);
    if (it == tools_.end()) return {};
    return param_header_values(it->second.header_params, arguments);
}

bool ToolRegistry::runs_as_task(std::string_view tool) const {
    std::lock_guard lock(mutex_);
    auto it = tools_.find(tool);
    return it != tools_.end() && it->second.runs_as_task;
}

void ToolRegistry::check_output(std::string_view tool, const CallToolResult& result) const {
    if (result.is_error) return;
    std::shared_ptr<const json::SchemaValidator> validator;
    {
        std::lock_guard lock(mutex_);
        auto it = tools_.find(tool);
        if (it == tools_.end() || !it->second.output) return;
        validator = it->second.output;
    }
    if (!result.structured_content)
        throw OutputSchemaMismatch(std::string(tool),
                                   {"", "required", "no structuredContent, but the tool declares an outputSchema"});
    if (auto error = validator->validate(*result.structured_content))
        throw OutputSchemaMismatch(std::string(tool), *error);
}

}  // namespace mcp::detail
