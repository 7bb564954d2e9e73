// initialize, ping, logging/setLevel, and the lifecycle notifications (2025-11-25 era).
#include "server/methods/methods.hpp"
#include "server/tasks/task_wire.hpp"

#include <mcp/protocol/revision.hpp>

namespace mcp::detail {

boost::json::object server_capabilities(const ServerCore& core) {
    // Keep in step with docs/adr/0002-declared-not-supported.md.
    boost::json::object caps;
    caps["tools"] = {{"listChanged", true}};
    caps["prompts"] = {{"listChanged", true}};
    caps["resources"] = {{"subscribe", true}, {"listChanged", true}};
    caps["logging"] = boost::json::object();
    caps["completions"] = boost::json::object();
    if (auto extensions = core.catalog.extensions.capabilities()) caps["extensions"] = std::move(*extensions);
    return caps;
}

namespace {

// 2025-11-25: the experimental tasks utility, when a tool supports tasks (its 2026 successor is
// the extension, advertised under extensions).
void add_session_task_capability(const ServerCore& core, boost::json::object& caps) {
    if (!core.catalog.extensions.declared(kTasksExtension)) return;
    caps["tasks"] = {{"list", boost::json::object()},
                     {"cancel", boost::json::object()},
                     {"requests", {{"tools", {{"call", boost::json::object()}}}}}};
}

}  // namespace

boost::json::value initialize(ServerCore& core, CallState& call) {
    if (!call.session) throw Error(error_code::invalid_request, "initialize needs a connection that keeps a session");
    if (call.session->initialized()) throw Error(error_code::invalid_request, "Session already initialized");
    const auto params = bind_params<InitializeParams>(call.params());
    const auto requested = params.protocolVersion;

    auto state = std::make_shared<ClientState>();
    // Echo a version we speak; otherwise offer our newest and let the client decide.
    state->protocol_version =
        revision::is_session_era(requested) ? std::string(requested) : std::string(revision::latest_session_era);
    if (params.capabilities) state->capabilities = *params.capabilities;
    if (const auto& info = params.clientInfo) {
        state->info.name = info->name.value_or("");
        state->info.version = info->version.value_or("");
        state->info.title = info->title.value_or("");
    }
    const std::string negotiated = state->protocol_version;
    const auto& principal = call.exchange->principal();
    core.sessions().initialized(call.session, std::move(state), principal ? principal->subject : std::string());

    boost::json::object result;
    result["protocolVersion"] = negotiated;
    auto caps = server_capabilities(core);
    add_session_task_capability(core, caps);
    result["capabilities"] = std::move(caps);
    result["serverInfo"] = to_wire(core.info);
    if (!core.options.instructions.empty()) result["instructions"] = core.options.instructions;
    return result;
}

boost::json::value ping(ServerCore&, CallState&) { return boost::json::object(); }

boost::json::value set_log_level(ServerCore& core, CallState& call) {
    const auto level = parse_log_level(bind_params<SetLevelParams>(call.params()).level);
    if (!level) throw InvalidParams("Unknown log level");
    core.sessions().record(*call.session,
                           {SessionChange::Kind::log_level, *level, {}});  // acknowledged only once stored
    return boost::json::object();
}

void initialized(ServerCore&, const jsonrpc::Message&, const std::shared_ptr<Session>&) {
    // Nothing to do: requests are served from the initialize response on, as clients on
    // reordering transports (HTTP/2) may race their first request with this notification.
}

void cancelled(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session) {
    if (!session || message.params == nullptr) return;
    const auto* id = bind_params<CancelledParams>(*message.params).requestId;
    if (id != nullptr) core.sessions().cancel(*session, *id);
}

}  // namespace mcp::detail
