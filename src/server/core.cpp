#include "server/core.hpp"

#include <mcp/protocol/jsonrpc.hpp>

#include "json/text_writer.hpp"
#include "util/log.hpp"

#include <string>
#include <utility>

namespace mcp::detail {

ServerCore::ServerCore(Implementation i, ServerOptions o)
    : info(std::move(i)),
      server_info(boost::json::object{{"name", info.name}, {"version", info.version}}),
      options(std::move(o)),
      nodes(options.store, {.resource_updated = [this](std::string_view uri) { listens.resource_updated(uri); },
                            .task_cancelled = [this](std::string_view task) { task_runs.stop(task); },
                            .task_changed = [this](std::string_view task) { tell_task_listeners(*this, task); }}) {
    stateless_stamp_text = R"("resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":)";
    append_json(stateless_stamp_text, server_info);
    stateless_stamp_text += '}';
    gauges.push_back(
        metrics::registry()
            .family("mcp_listen_streams", "Open 2026-07-28 subscriptions/listen streams", metrics::Type::gauge)
            .callback({}, [this] { return static_cast<double>(listens.size()); }));
    gauges.push_back(
        metrics::registry()
            .family("mcp_tasks_running", "Tasks whose handler runs or waits on this node", metrics::Type::gauge)
            .callback({}, [this] { return static_cast<double>(task_runs.size()); }));
}

SessionService& ServerCore::sessions() {
    std::call_once(sessions_once_, [this] {
        const auto& o = options.sessions;
        sessions_ = std::make_unique<SessionService>(
            nodes.backend_ptr(),
            SessionService::Settings{
                .max_sessions = o.max_sessions,
                .max_sessions_per_client = options.clients.sessions,
                .idle_timeout = o.idle_timeout,
                .half_open_timeout = o.half_open_timeout,
                .journal_events_per_stream = o.journal_events_per_stream,
                .journal_bytes_per_stream = o.journal_bytes_per_stream,
                .journal_streams = o.max_sessions * 4 + options.client_requests.max_parked_calls,
                .initial_level = options.default_client_log_level,
                .keys = [this]() -> const KeyRing& { return keys(); },
                .in_background = [this](std::function<void()> work) { deadlines().post(std::move(work)); }});
        sessions_made_.store(sessions_.get());
    });
    return *sessions_;
}

HandlerPool& ServerCore::pool() {
    std::call_once(pool_once_, [this] {
        pool_ = std::make_unique<HandlerPool>(options.execution);
        auto& threads = metrics::registry().family(
            "mcp_handler_threads", "Handler pool threads, running a call or idle", metrics::Type::gauge, {"state"});
        gauges.push_back(threads.callback({"busy"}, [this] {
            const auto s = pool_->stats();
            return static_cast<double>(s.threads - s.idle);
        }));
        gauges.push_back(threads.callback({"idle"}, [this] { return static_cast<double>(pool_->stats().idle); }));
        gauges.push_back(
            metrics::registry()
                .family("mcp_handler_queue_length", "Calls waiting for a handler thread", metrics::Type::gauge)
                .callback({}, [this] { return static_cast<double>(pool_->stats().queued); }));
        pool_started_.store(true);
    });
    return *pool_;
}

DeadlineQueue& ServerCore::deadlines() {
    std::call_once(deadlines_once_, [this] { deadlines_ = std::make_unique<DeadlineQueue>(); });
    return *deadlines_;
}

const KeyRing& ServerCore::keys() {
    std::call_once(keys_once_, [this] {
        if (options.keys) return;
        options.keys = KeyRing::generate();
        log().warn(
            "no sealing key configured (--secret-file or MCP_SECRET): generated key {}; its tokens do not "
            "survive a restart and other nodes do not accept them",
            options.keys->active_key_id());
    });
    return *options.keys;
}

void ServerCore::list_changed(std::string_view list) {
    listens.list_changed(list);
    auto* sessions = sessions_made_.load();
    if (sessions == nullptr) return;  // not serving yet: no session to tell
    const auto message = jsonrpc::make_notification("notifications/" + std::string(list) + "/list_changed", {});
    for (const auto& session : sessions->listeners()) session->notify(message);
}

void ServerCore::resource_updated(std::string_view uri) {
    const auto message = jsonrpc::make_notification("notifications/resources/updated", {{"uri", uri}});
    listens.resource_updated(uri);
    nodes.resource_updated(uri);
    for (const auto& session : sessions().subscribers(uri)) session->notify(message);
}

}  // namespace mcp::detail
