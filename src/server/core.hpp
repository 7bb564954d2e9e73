#pragma once
// The server's internal state: registries, the handler pool, the session service.
#include <mcp/json/schema_validator.hpp>
#include <mcp/server/completion.hpp>
#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/options.hpp>
#include <mcp/server/prompt.hpp>
#include <mcp/server/resource.hpp>
#include <mcp/server/tool.hpp>
#include <mcp/protocol/uri_template.hpp>

#include "server/cursor.hpp"
#include "util/handler_pool.hpp"
#include "server/listen_registry.hpp"
#include "server/registry.hpp"
#include "server/routing_headers.hpp"
#include "sessions/session_service.hpp"
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
    // listens to the others (resource updates for listen streams, broadcasts).
    Backend& backend();
    // 2025-era sessions, made on first use from the backend and options.sessions.
    SessionService& sessions();
    // Started by the first call, so options can still change before serving begins.
    HandlerPool& pool();
    bool started() const { return pool_started_.load(); }
    // Serving has begun (a call, or a session opened): options are fixed from here on.
    bool serving() const { return started() || sessions_made_.load() != nullptr; }
    ContextRegistry* context_registry = &ContextRegistry::global();
    Authenticator authenticator;

    ListenRegistry listens;
    // The configured key ring, or one generated (and logged) on first use.
    const KeyRing& keys();

    // Tells 2025 sessions and 2026 listen streams that a list changed ("tools", "prompts",
    // "resources"), or that a resource changed.
    void list_changed(std::string_view list);
    void resource_updated(std::string_view uri);

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

    std::once_flag pool_once_;
    std::atomic<bool> pool_started_{false};
    std::unique_ptr<HandlerPool> pool_;

    std::mutex broadcast_mutex_;
    std::multimap<std::string, std::function<void(std::string_view)>, std::less<>> broadcast_handlers_;
    void run_broadcast_handlers(std::string_view topic, std::string_view payload);

    void join_cluster(Cluster& cluster);
    const std::shared_ptr<Backend>& backend_ptr();
    std::once_flag backend_once_;
    std::shared_ptr<Backend> backend_;
    std::vector<std::uint64_t> cluster_subscriptions_;
    std::once_flag sessions_once_;
    std::unique_ptr<SessionService> sessions_;
    // Set once sessions_ exists: list changes before serving began have no session to reach.
    std::atomic<SessionService*> sessions_made_{nullptr};
};

}  // namespace mcp::detail
