#pragma once
// The server's internal state. What it serves (the catalog), the calls it runs (the handler pool
// and the call tracker), 2025-era sessions (the session service), 2026 listen streams, and its
// link to the other nodes.
#include <mcp/protocol/types.hpp>
#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/interceptor.hpp>
#include <mcp/server/options.hpp>
#include <mcp/server/request_context.hpp>

#include "server/audit_log.hpp"
#include "server/call_tracker.hpp"
#include "server/catalog.hpp"
#include "server/listen_registry.hpp"
#include "server/node_link.hpp"
#include "server/resource_watchers.hpp"
#include "server/tasks/task_runs.hpp"
#include "sessions/session_service.hpp"
#include "util/client_quota.hpp"
#include "util/deadline_queue.hpp"
#include "util/fair_share.hpp"
#include "util/handler_pool.hpp"
#include "util/memory_release.hpp"
#include "util/metrics.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string_view>

namespace mcp::telemetry {
class Tracer;
}

namespace mcp::detail {

struct ServerCore {
    ServerCore(Implementation info, ServerOptions options);
    ServerCore(const ServerCore&) = delete;
    ServerCore& operator=(const ServerCore&) = delete;

    Implementation info;
    boost::json::value server_info;  // {name, version}, stamped into 2026-07-28 results
    // The members every 2026-07-28 result gets when it has none of them (resultType and _meta with
    // serverInfo), as JSON text: written around results that go out as text (response_text.hpp).
    std::string stateless_stamp_text;
    ServerOptions options;
    ContextRegistry* context_registry = &ContextRegistry::global();
    Authenticator authenticator;

    Catalog catalog;
    std::vector<Interceptor> interceptors;  // fixed once serving begins
    CallTracker calls;
    ListenRegistry listens;
    ResourceWatchers resource_watchers;
    TaskRuns task_runs;  // the tasks this node runs
    std::atomic<bool> shutting_down{false};
    // What clients hold, bounded per client and in all (docs/adr/0024-fair-limits.md).
    FairShare listen_streams{Bound::listen_streams};  // max_listen_streams, clients.listen_streams
    FairShare parked_calls{Bound::parked_calls};      // client_requests.max_parked_calls, clients.parked_calls
    ClientQuota calls_by_client;                      // clients.calls (set with the options)
    std::shared_ptr<MemoryReleaser> memory_releaser;  // ServerOptions::memory_release; set by Server::configure
    std::unique_ptr<AuditLog> audit;                  // ServerOptions::audit; set by Server::configure
    std::shared_ptr<telemetry::Tracer> tracer;        // ServerOptions::tracing; null when off

    // 2025-era sessions, made on first use from the backend and options.sessions.
    SessionService& sessions();
    // Started by the first call, so options can still change before serving begins.
    HandlerPool& pool();
    // Deadlines of requests parked calls sent to 2025 clients; started on first use.
    DeadlineQueue& deadlines();
    bool started() const { return pool_started_.load(); }
    // Serving has begun (a call, or a session opened): options are fixed from here on.
    bool serving() const { return started() || sessions_made_.load() != nullptr; }
    // The configured key ring, or one generated (and logged) on first use.
    const KeyRing& keys();

    // Tells 2025 sessions and 2026 listen streams that a list changed ("tools", "prompts",
    // "resources"); or that a resource changed, the other nodes' listen streams included.
    void list_changed(std::string_view list);
    void resource_updated(std::string_view uri);

private:
    std::once_flag keys_once_;
    std::once_flag pool_once_;
    std::atomic<bool> pool_started_{false};
    std::unique_ptr<HandlerPool> pool_;
    std::once_flag sessions_once_;
    std::unique_ptr<SessionService> sessions_;
    // Set once sessions_ exists: list changes before serving began have no session to reach.
    std::atomic<SessionService*> sessions_made_{nullptr};
    // After the session service, so that it stops first: what it runs uses the service.
    std::once_flag deadlines_once_;
    std::unique_ptr<DeadlineQueue> deadlines_;

public:
    // Declared last so that it goes first: no signal from another node runs into a half-destroyed
    // core.
    NodeLink nodes;
    // Read when scraped (listen streams, the handler pool): declared after what they read, so
    // they go before it.
    std::vector<metrics::CallbackHandle> gauges;
};

}  // namespace mcp::detail
