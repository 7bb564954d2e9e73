#pragma once
// The server's internal state: registries, the handler pool, live sessions.
#include <mcp/json/schema_validator.hpp>
#include <mcp/server/completion.hpp>
#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/options.hpp>
#include <mcp/server/prompt.hpp>
#include <mcp/server/resource.hpp>
#include <mcp/server/session.hpp>
#include <mcp/server/tool.hpp>
#include <mcp/server/uri_template.hpp>

#include "server/cluster_sessions.hpp"
#include "server/cursor.hpp"
#include "server/handler_pool.hpp"
#include "server/listen_registry.hpp"
#include "server/registry.hpp"
#include "server/routing_headers.hpp"
#include "store/backend.hpp"

#include <atomic>
#include <condition_variable>
#include <unordered_map>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail {

struct ToolEntry {
    ToolDefinition def;
    json::SchemaValidator validator;
    std::vector<HeaderParam> header_params;  // x-mcp-header annotations
    boost::json::value wire;                 // the tools/list item
};

struct PromptEntry {
    PromptDefinition def;
    boost::json::value wire;
};

struct ResourceEntry {
    ResourceDefinition def;
    boost::json::value wire;
};

struct TemplateEntry {
    TemplateDefinition def;
    UriTemplate matcher;
    boost::json::value wire;
};

class Completers {
public:
    void set(std::string owner, std::string argument, Completer completer);
    // The completer for (owner, argument), or an empty function.
    Completer find(std::string_view owner, std::string_view argument) const;

private:
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, std::string>, Completer, std::less<>> completers_;
};

struct ServerCore {
    ServerCore(Implementation info, ServerOptions options);
    ~ServerCore();
    ServerCore(const ServerCore&) = delete;
    ServerCore& operator=(const ServerCore&) = delete;

    Implementation info;
    boost::json::value server_info;  // {name, version}, stamped into 2026-07-28 results
    ServerOptions options;

    Registry<ToolEntry> tools;
    Registry<PromptEntry> prompts;
    Registry<ResourceEntry> resources;
    Registry<TemplateEntry> templates;
    // resources/read tries templates in registration order.
    mutable std::shared_mutex template_order_mutex;
    std::vector<std::shared_ptr<const TemplateEntry>> template_order;

    Completers prompt_completers;
    Completers template_completers;
    // The store named by options.store, made on first use; with a shared one, this node also
    // listens to the others (forwarded cancellations, resource updates).
    Backend& backend();
    Mailbox& mailbox() { return backend().mailbox(); }
    // Started by the first call, so options can still change before serving begins.
    HandlerPool& pool();
    bool started() const { return pool_started_.load(); }
    ContextRegistry* context_registry = &ContextRegistry::global();
    Authenticator authenticator;

    ListenRegistry listens;
    // The configured key ring, or one generated (and logged) on first use.
    const KeyRing& keys();

    // Tells 2025 sessions and 2026 listen streams that a list changed ("tools", "prompts",
    // "resources"), or that a resource changed.
    void list_changed(std::string_view list);
    void resource_updated(std::string_view uri);
    void track_session(const std::shared_ptr<Session>& session);
    // Entries in the session table, ended sessions not yet swept included.
    std::size_t tracked_sessions();
    std::shared_ptr<Session> local_session(std::string_view id);
    // Set by the HTTP transport while it serves with a shared store; nullptr to unset.
    void set_cluster_sessions(ClusterSessions* sessions);
    // A notifications/cancelled for a call that is not running here: another node may run it.
    void forward_cancel(const Session& session, const boost::json::value& request_id);

    // Server::on_broadcast / broadcast: application messages to every node.
    void on_broadcast(std::string topic, std::function<void(std::string_view)> handler);
    void broadcast(std::string_view topic, std::string_view payload);

    std::atomic<bool> shutting_down{false};

    // Calls queued or running on the handler pool (for wait_idle and cancel_all).
    void call_started(const std::shared_ptr<CallState>& call);
    void call_ended(const CallState& call);
    bool wait_idle(std::chrono::milliseconds timeout);
    void cancel_all();

private:
    std::mutex calls_mutex_;
    std::condition_variable calls_idle_;
    std::unordered_map<const CallState*, std::weak_ptr<CallState>> calls_;
    std::once_flag keys_once_;
    // Sends `message` to every initialized session for which `want` returns true.
    void broadcast(const boost::json::value& message, const std::function<bool(Session&)>& want);

    std::once_flag pool_once_;
    std::atomic<bool> pool_started_{false};
    std::unique_ptr<HandlerPool> pool_;
    std::mutex sessions_mutex_;
    std::unordered_map<std::string, std::weak_ptr<Session>> sessions_;
    static constexpr std::size_t kFirstSessionSweep = 1024;
    std::size_t sweep_sessions_at_ = kFirstSessionSweep;
    // Held while the transport's directory is in use, so unsetting it waits for its users.
    std::mutex cluster_sessions_mutex_;
    ClusterSessions* cluster_sessions_ = nullptr;

    std::mutex broadcast_mutex_;
    std::multimap<std::string, std::function<void(std::string_view)>, std::less<>> broadcast_handlers_;
    void run_broadcast_handlers(std::string_view topic, std::string_view payload);

    void join_cluster(Cluster& cluster);
    std::once_flag backend_once_;
    std::shared_ptr<Backend> backend_;
    const std::string node_id_;  // tells this node's own signals apart
    std::vector<std::uint64_t> cluster_subscriptions_;
};

}  // namespace mcp::detail
