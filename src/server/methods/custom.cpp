// The methods an application or an extension registered beside the protocol's.
#include "server/methods/methods.hpp"

#include <mcp/protocol/errors.hpp>

namespace mcp::detail {

namespace {

const MethodEntry& entry_of(const ServerCore& core, const CallState& call) {
    const auto* entry = core.catalog.methods.find(call.message.method);
    if (entry == nullptr)
        throw Error(error_code::method_not_found, "Method not found: " + std::string(call.message.method));
    return *entry;
}

// An extension whose methods need the client's declaration, which this request lacks: on
// 2026-07-28 the capability it misses; before, the method does not exist for a client that did
// not negotiate the extension.
void check_client_declared(const ServerCore& core, const MethodEntry& entry, const Exchange& exchange) {
    if (entry.extension.empty() || !core.catalog.extensions.methods_need_client(entry.extension) ||
        exchange.client_extension(entry.extension) != nullptr) {
        return;
    }
    if (exchange.era() == Era::stateless) {
        throw Error(error_code::missing_required_client_capability,
                    "Missing required client capability: the extension " + entry.extension,
                    boost::json::object{
                        {"requiredCapabilities", {{"extensions", {{entry.extension, boost::json::object()}}}}}});
    }
    throw Error(error_code::method_not_found, "Method not found: " + entry.def.spec.name +
                                                  " belongs to the extension " + entry.extension +
                                                  ", which the client did not declare");
}

}  // namespace

bool method_runs_inline(const ServerCore& core, const CallState& call) {
    const auto* entry = core.catalog.methods.find(call.message.method);
    return entry != nullptr && entry->def.spec.runs_inline;
}

boost::json::value call_method(ServerCore& core, CallState& call) {
    const auto& entry = entry_of(core, call);
    check_client_declared(core, entry, *call.exchange);
    check_scopes(call.exchange->principal().get(), entry.def.spec.required_scopes);

    // The 2026-07-28 envelope belongs to the protocol, not to the method's params.
    boost::json::object params;
    for (const auto& kv : call.params()) {
        if (kv.key() != "_meta") params.emplace(kv.key(), kv.value());
    }
    if (auto invalid = entry.validator.validate(params)) throw InvalidParams("Invalid params: " + invalid->message);

    Context ctx(call);
    try {
        return entry.def.invoke(params, ctx);
    } catch (const InputRequired&) {
        // Multi-round trips exist for tools/call, prompts/get and resources/read only.
        call.input.pending.clear();
        throw Error(error_code::internal_error, "Internal error: " + entry.def.spec.name +
                                                    " asked the client for input, which 2026-07-28 allows only in "
                                                    "tools, prompts and resources");
    }
}

}  // namespace mcp::detail
