// resources/list, resources/templates/list, resources/read, resources/subscribe|unsubscribe.
#include "server/methods/methods.hpp"
#include "sessions/session_state.hpp"

namespace mcp::detail {

boost::json::value list_resources(ServerCore& core, CallState& call) {
    return list_page(core, call, core.catalog.resources, "resources");
}

boost::json::value list_resource_templates(ServerCore& core, CallState& call) {
    return list_page(core, call, core.catalog.templates.registry(), "resourceTemplates");
}

// Fixed resources only: matching the templates twice would cost more than the hop it saves.
bool resource_runs_inline(const ServerCore& core, const CallState& call) {
    return names_inline_entry(core.catalog.resources, call);
}

std::vector<std::string> resource_scopes(const ServerCore& core, std::string_view uri) {
    if (core.catalog.resources.find(uri)) return declared_scopes(core.catalog.resources, uri);
    for (const auto& entry : core.catalog.templates.in_order()) {
        if (entry->matcher.match(uri)) return entry->def.spec.required_scopes;
    }
    return {};
}

boost::json::value read_resource(ServerCore& core, CallState& call) {
    const std::string uri(bind_params<ResourceParams>(call.params()).uri);
    Context ctx(call);
    if (auto entry = core.catalog.resources.find(uri)) {
        call.replayable = entry->def.spec.replayable;
        call.entity = entry->metrics;
        return entry->def.invoke(uri, ctx);
    }
    for (const auto& entry : core.catalog.templates.in_order()) {
        if (auto vars = entry->matcher.match(uri)) {
            call.replayable = entry->def.spec.replayable;
            call.entity = entry->metrics;
            return entry->def.invoke(uri, *vars, ctx);
        }
    }
    throw ResourceNotFound(uri);
}

void check_subscribed_uri(std::string_view uri) {
    constexpr std::size_t kMaxBytes = 8 * 1024;
    if (uri.size() > kMaxBytes) {
        throw InvalidParams("URI too long to subscribe to: " + std::to_string(uri.size()) + " bytes (limit " +
                            std::to_string(kMaxBytes) + ")");
    }
}

boost::json::value subscribe(ServerCore& core, CallState& call) {
    if (SessionState::of(*call.session).subscription_count() >= core.options.max_subscriptions) {
        throw InvalidParams("Too many subscriptions (limit " + std::to_string(core.options.max_subscriptions) + ")");
    }
    std::string uri(bind_params<ResourceParams>(call.params()).uri);
    check_subscribed_uri(uri);
    // Updates would tell the principal about a resource it may not read.
    check_scopes(call.exchange->principal().get(), resource_scopes(core, uri));
    auto& session = SessionState::of(*call.session);
    // The application may refuse it (a mount whose inner server cannot subscribe).
    auto watch = session.watching(uri) ? nullptr : core.resource_watchers.watch(uri);
    core.sessions().record(*call.session, {SessionChange::Kind::subscribe, {}, uri});  // acknowledged only once stored
    if (watch) session.keep_watch(std::move(uri), std::move(watch));                   // a duplicate is released here
    return boost::json::object();
}

boost::json::value unsubscribe(ServerCore& core, CallState& call) {
    std::string uri(bind_params<ResourceParams>(call.params()).uri);
    core.sessions().record(*call.session, {SessionChange::Kind::unsubscribe, {}, uri});
    SessionState::of(*call.session).drop_watch(uri);
    return boost::json::object();
}

}  // namespace mcp::detail
