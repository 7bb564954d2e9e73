// prompts/list and prompts/get.
#include "server/methods/methods.hpp"

namespace mcp::detail {

boost::json::value list_prompts(ServerCore& core, CallState& call) {
    return list_page(core, call, core.catalog.prompts, "prompts");
}

bool prompt_runs_inline(const ServerCore& core, const CallState& call) {
    return names_inline_entry(core.catalog.prompts, call);
}

std::vector<std::string> prompt_scopes(const ServerCore& core, std::string_view name) {
    return declared_scopes(core.catalog.prompts, name);
}

boost::json::value get_prompt(ServerCore& core, CallState& call) {
    auto params = bind_params<GetPromptParams>(call.params());
    auto entry = core.catalog.prompts.find(params.name);
    if (!entry) throw InvalidParams("Unknown prompt: " + std::string(params.name));
    call.entity = entry->metrics;

    PromptArguments arguments(std::move(params.arguments).value_or(PromptArguments()));
    for (const auto& arg : entry->def.spec.arguments) {
        if (arg.required && !arguments.contains(arg.name))
            throw InvalidParams("Missing required argument: " + arg.name);
    }
    call.replayable = entry->def.spec.replayable;
    Context ctx(call);
    return entry->def.invoke(arguments, ctx);
}

}  // namespace mcp::detail
