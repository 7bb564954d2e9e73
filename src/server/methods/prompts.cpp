// prompts/list and prompts/get.
#include "server/methods/methods.hpp"

namespace mcp::detail {

boost::json::value list_prompts(ServerCore& core, CallState& call) {
    return list_page(core, call, core.prompts, "prompts");
}

bool prompt_runs_inline(const ServerCore& core, const CallState& call) { return names_inline_entry(core.prompts, call, "name"); }

boost::json::value get_prompt(ServerCore& core, CallState& call) {
    const auto& params = call.params();
    const std::string_view name = require_string(params, "name");
    auto entry = core.prompts.find(name);
    if (!entry) throw InvalidParams("Unknown prompt: " + std::string(name));

    PromptArguments arguments;
    if (const auto* given = optional_object(params, "arguments")) {
        for (const auto& kv : *given) {
            if (!kv.value().is_string()) {
                throw InvalidParams("Argument " + std::string(kv.key()) + " must be a string");
            }
            arguments.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
        }
    }
    for (const auto& arg : entry->def.spec.arguments) {
        if (arg.required && !arguments.contains(arg.name)) throw InvalidParams("Missing required argument: " + arg.name);
    }
    Context ctx(call);
    return entry->def.invoke(arguments, ctx);
}

}  // namespace mcp::detail
