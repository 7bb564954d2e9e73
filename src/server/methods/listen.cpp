// subscriptions/listen (2026-07-28): a long-lived response stream of change notifications.
#include "server/client_limits.hpp"
#include "server/methods/methods.hpp"
#include "server/tasks/task_runs.hpp"
#include "server/tasks/task_wire.hpp"
#include "sessions/session_state.hpp"

namespace mcp::detail {

namespace {

// notifications/tasks for these tasks (SEP-2663): the extension must be declared. Every id is
// honored; a task that is not the caller's, or is unknown, simply never notifies.
void read_task_ids(const ServerCore& core, const CallState& call, const boost::json::array& ids, Listen& listen,
                   boost::json::object& honored) {
    if (call.exchange->client_extension(kTasksExtension) == nullptr) {
        throw tasks_extension_missing("Missing required client capability");
    }
    if (ids.size() > core.options.max_subscriptions)
        throw InvalidParams("Too many taskIds (limit " + std::to_string(core.options.max_subscriptions) + ")");
    boost::json::array echoed;
    for (const auto& id : ids) {
        if (!id.is_string() || id.get_string().empty() || id.get_string().size() > 256)
            throw InvalidParams("notifications.taskIds must be an array of task ids");
        if (listen.task_ids.emplace(id.get_string()).second) echoed.push_back(id);
    }
    listen.task_owner = task_owner(call);
    honored["taskIds"] = std::move(echoed);
}

std::shared_ptr<Listen> read_filter(ServerCore& core, const std::shared_ptr<CallState>& call,
                                    boost::json::object& honored) {
    const auto filter = bind_params<ListenParams>(call->params()).notifications;
    auto listen = std::make_shared<Listen>();
    listen->call = call;
    listen->tools = filter.toolsListChanged.value_or(false);
    listen->prompts = filter.promptsListChanged.value_or(false);
    listen->resources = filter.resourcesListChanged.value_or(false);
    if (listen->tools) honored["toolsListChanged"] = true;
    if (listen->prompts) honored["promptsListChanged"] = true;
    if (listen->resources) honored["resourcesListChanged"] = true;
    if (const auto* uris = filter.resourceSubscriptions) {
        if (uris->size() > core.options.max_subscriptions) {
            throw InvalidParams("Too many resourceSubscriptions (limit " +
                                std::to_string(core.options.max_subscriptions) + ")");
        }
        boost::json::array echoed;
        for (const auto& uri : *uris) {
            if (!uri.is_string()) throw InvalidParams("notifications.resourceSubscriptions must be an array of URIs");
            check_subscribed_uri(uri.get_string());
            check_scopes(call->exchange->principal().get(), resource_scopes(core, uri.get_string()));
            if (!listen->uris.emplace(uri.get_string()).second) continue;
            if (auto watch = core.resource_watchers.watch(uri.get_string()))
                listen->watches.push_back(std::move(watch));
            echoed.push_back(uri);
        }
        honored["resourceSubscriptions"] = std::move(echoed);
    }
    if (const auto* ids = filter.taskIds) read_task_ids(core, *call, *ids, *listen, honored);
    return listen;
}

// The graceful end of a stream: an empty result naming the subscription.
boost::json::value closing_result(const ServerCore& core, const CallState& call) {
    boost::json::object meta{{"io.modelcontextprotocol/subscriptionId", call.message.id},
                             {"io.modelcontextprotocol/serverInfo", core.server_info}};
    return jsonrpc::make_result(call.message.id,
                                boost::json::object{{"resultType", "complete"}, {"_meta", std::move(meta)}});
}

}  // namespace

void start_listen(ServerCore& core, const std::shared_ptr<CallState>& call) {
    boost::json::object honored;
    std::shared_ptr<Listen> listen;
    try {
        listen = read_filter(core, call, honored);
    } catch (const Refusal& e) {
        const auto answering = call->untrack();
        call->sink->complete_refused(e, jsonrpc::make_error(call->message.id, e.code(), e.message(), e.data()));
        return;
    } catch (const Error& e) {
        const auto answering = call->untrack();
        call->sink->complete(jsonrpc::make_error(call->message.id, e.code(), e.message(), e.data()));
        return;
    }
    // At the bound, the oldest stream of a client above its share ends as at shutdown, and its
    // client may listen again.
    auto verdict =
        core.listen_streams.take(call->client(), {core.options.max_listen_streams, core.options.clients.listen_streams},
                                 [&core, weak = std::weak_ptr<Listen>(listen)] {
                                     auto evicted = weak.lock();
                                     if (!evicted || !evicted->end()) return;  // its client ended it first
                                     const auto answering = evicted->call->untrack();
                                     evicted->call->sink->complete(closing_result(core, *evicted->call));
                                 });
    if (const auto* refused = std::get_if<FairShare::Refusal>(&verdict)) {
        const auto answering = call->untrack();
        if (*refused == FairShare::Refusal::client_limit) {
            const Refusal refusal = over_client_quota("subscriptions/listen streams");
            call->sink->complete_refused(refusal,
                                         jsonrpc::make_error(call->message.id, refusal.code(), refusal.message()));
        } else {
            call->sink->complete_overloaded(jsonrpc::make_error(call->message.id, error_code::internal_error,
                                                                "Too many open subscriptions/listen streams (limit " +
                                                                    std::to_string(core.options.max_listen_streams) +
                                                                    ")"));
        }
        return;
    }
    core.listens.add(listen, core.options.max_listen_streams);
    {
        // The acknowledgement goes first: notifications wait for this lock and for `open`.
        std::lock_guard lock(listen->mutex);
        listen->hold = std::move(std::get<FairShare::Hold>(verdict));
        if (listen->ended) return;  // taken for another client already, and answered
        boost::json::object params{{"notifications", std::move(honored)},
                                   {"_meta", {{"io.modelcontextprotocol/subscriptionId", call->message.id}}}};
        call->sink->send(jsonrpc::make_notification("notifications/subscriptions/acknowledged", std::move(params)));
        listen->open = true;
    }
    // The client closed the stream or cancelled: no response, as for any cancelled request.
    Listen* raw = listen.get();
    listen->on_stop.emplace(call->stop.get_token(), std::function<void()>([raw] {
                                if (!raw->end()) return;  // the server ended it first
                                const auto answering = raw->call->untrack();
                                raw->call->sink->complete(std::nullopt);
                            }));
}

void end_listens(ServerCore& core) {
    for (const auto& listen : core.listens.take_all()) {
        if (!listen->end()) continue;  // the client ended it first
        const auto answering = listen->call->untrack();
        listen->call->sink->complete(closing_result(core, *listen->call));
    }
}

}  // namespace mcp::detail
