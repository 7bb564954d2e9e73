// completion/complete for prompt arguments and resource template variables. Completing for a prompt
// or template needs the scopes it declares: the values may be what it guards (names of notes).
#include "server/methods/methods.hpp"

namespace mcp::detail {

namespace {

constexpr std::size_t kMaxValues = 100;  // the spec's cap per response

using EnumValues = std::map<std::string, std::vector<std::string>, std::less<>>;

// A registered completer wins, then the entry's own handler; an enum-typed argument completes
// from its values.
Completion candidates(const Completer& completer, const CompletionHandler& handler, const EnumValues& enums,
                      const CompletionRequest& request, CallState& call) {
    if (completer) return {.values = completer(request)};
    if (handler) {
        Context ctx(call);
        return handler(request, ctx);
    }
    Completion out;
    if (auto it = enums.find(request.argument); it != enums.end()) {
        for (const auto& v : it->second) {
            if (v.starts_with(request.value)) out.values.push_back(v);
        }
    }
    return out;
}

boost::json::value completion_result(const Completion& found) {
    const auto& values = found.values;
    boost::json::array out;
    for (std::size_t i = 0; i < values.size() && i < kMaxValues; ++i) out.emplace_back(values[i]);
    boost::json::object completion;
    completion["values"] = std::move(out);
    completion["total"] = found.total.value_or(values.size());
    completion["hasMore"] = found.has_more || values.size() > kMaxValues;
    boost::json::object result;
    result["completion"] = std::move(completion);
    return result;
}

CompletionRequest read_request(const CompleteParams& params) {
    CompletionRequest request;
    request.argument = params.argument.name;
    request.value = params.argument.value.value_or("");
    if (params.context && params.context->arguments) {
        for (const auto& kv : *params.context->arguments) {
            if (kv.value().is_string())
                request.context.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
        }
    }
    return request;
}

std::string_view required(const std::optional<std::string_view>& member, const char* path) {
    if (!member) throw InvalidParams(std::string("Invalid params: missing required property \"") + path + "\"");
    return *member;
}

}  // namespace

boost::json::value complete(ServerCore& core, CallState& call) {
    const auto params = bind_params<CompleteParams>(call.params());
    const CompletionRequest request = read_request(params);

    const std::string_view type = params.ref.type;
    if (type == "ref/prompt") {
        const std::string_view name = required(params.ref.name, "ref/name");
        auto entry = core.catalog.prompts.find(name);
        if (!entry) throw InvalidParams("Unknown prompt: " + std::string(name));
        check_scopes(call.exchange->principal().get(), entry->def.spec.required_scopes);
        return completion_result(candidates(core.catalog.prompt_completers.find(name, request.argument),
                                            entry->def.spec.complete, entry->def.enum_values, request, call));
    }
    if (type == "ref/resource") {
        const std::string_view uri = required(params.ref.uri, "ref/uri");
        auto entry = core.catalog.templates.registry().find(uri);
        if (!entry) throw InvalidParams("Unknown resource template: " + std::string(uri));
        check_scopes(call.exchange->principal().get(), entry->def.spec.required_scopes);
        return completion_result(candidates(core.catalog.template_completers.find(uri, request.argument),
                                            entry->def.spec.complete, entry->def.enum_values, request, call));
    }
    throw InvalidParams("Unknown reference type: " + std::string(type));
}

}  // namespace mcp::detail
