#pragma once
// mcp::Server: the registries of tools, prompts and resources, and the transport-agnostic core
// every transport calls. Registration may happen at any time, also while serving; lists change
// atomically and clients are told with notifications/*/list_changed.
#include <mcp/protocol/types.hpp>
#include <mcp/server/completion.hpp>
#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/detail/method_adapter.hpp>
#include <mcp/server/detail/prompt_adapter.hpp>
#include <mcp/server/detail/resource_adapter.hpp>
#include <mcp/server/detail/tool_adapter.hpp>
#include <mcp/server/detail/transport_access.hpp>
#include <mcp/server/interceptor.hpp>
#include <mcp/server/method.hpp>
#include <mcp/server/options.hpp>
#include <mcp/server/prompt.hpp>
#include <mcp/server/resource.hpp>
#include <mcp/server/sink.hpp>
#include <mcp/server/tool.hpp>
#include <mcp/sessions/session.hpp>

#include <chrono>
#include <concepts>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp {

namespace detail {
struct ServerCore;
}  // namespace detail

namespace telemetry {
class Tracer;
}

class Extension;

// Told of a URI a client starts hearing of; returns what runs when it stops (or nothing).
using ResourceWatcher = std::function<std::function<void()>(std::string_view uri)>;

class Server {
public:
    explicit Server(Implementation info, ServerOptions options = {});
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // ---- Tools. Registration throws std::invalid_argument for a name outside
    // [A-Za-z0-9_.-]{1,64}, a duplicate name, an empty description or a non-object input schema.
    template <class F>
    void tool(std::string name, std::string description, F&& fn) {
        ToolSpec spec;
        spec.name = std::move(name);
        spec.description = std::move(description);
        tool(std::move(spec), std::forward<F>(fn));
    }
    template <class F>
    void tool(ToolSpec spec, F&& fn) {
        add_tool(detail::make_tool(std::move(spec), std::forward<F>(fn)));
    }
    bool remove_tool(std::string_view name);

    // ---- Prompts.
    template <class F>
    void prompt(std::string name, std::string description, F&& fn) {
        PromptSpec spec;
        spec.name = std::move(name);
        spec.description = std::move(description);
        prompt(std::move(spec), std::forward<F>(fn));
    }
    template <class F>
    void prompt(PromptSpec spec, F&& fn) {
        add_prompt(detail::make_prompt(std::move(spec), std::forward<F>(fn)));
    }
    bool remove_prompt(std::string_view name);

    // ---- Resources and templates.
    template <class F>
    void resource(std::string uri, ResourceSpec spec, F&& fn) {
        add_resource(detail::make_resource(std::move(uri), std::move(spec), std::forward<F>(fn)));
    }
    template <class F>
    void resource_template(std::string uri_template, ResourceSpec spec, F&& fn) {
        add_template(detail::make_template(std::move(uri_template), std::move(spec), std::forward<F>(fn)));
    }
    bool remove_resource(std::string_view uri);
    bool remove_resource_template(std::string_view uri_template);
    // Tells every session subscribed to `uri` that it changed (notifications/resources/updated).
    void notify_resource_updated(std::string_view uri);
    // Tells `watcher` of each URI a client of this node starts hearing of (a 2025 session's
    // resources/subscribe, a 2026 subscriptions/listen stream's resourceSubscriptions), once per
    // session or stream. What it returns runs once when that client stops (resources/unsubscribe,
    // the session or the stream ended), on whichever thread that happens: it must not block. A
    // watcher that throws mcp::Error refuses the subscription with that error. Before serving.
    void watch_resource_subscriptions(ResourceWatcher watcher);

    // ---- Completions. Enum-typed prompt arguments and template variables complete by themselves.
    void complete_prompt_argument(std::string prompt, std::string argument, Completer completer);
    void complete_template_variable(std::string uri_template, std::string variable, Completer completer);

    // ---- Extensions (SEP-2133) and methods beside the protocol's (mcp/server/method.hpp).
    // extension() advertises an extension under capabilities.extensions in initialize and
    // server/discover, and returns the handle that registers the methods its specification
    // defines. Throws std::invalid_argument for a malformed id or one declared already.
    Extension extension(std::string id, boost::json::object settings = {});
    Extension extension(ExtensionSpec spec);
    // An application's own JSON-RPC method ("vendor/name"), served in both eras and typed like a
    // tool. Throws std::invalid_argument for a name of the protocol (MethodSpec::name), one served
    // already, or a params schema whose root is not an object schema.
    // (A deduced name, so that a braced MethodSpec never reads as a string: GCC 12 ignores designators
    // when it ranks the overloads.)
    template <class Name, class F>
    requires std::convertible_to<Name, std::string>
    void method(Name&& name, F&& fn) {
        MethodSpec spec;
        spec.name = std::forward<Name>(name);
        method(std::move(spec), std::forward<F>(fn));
    }
    template <class F>
    void method(MethodSpec spec, F&& fn) {
        add_method(detail::make_method(std::move(spec), std::forward<F>(fn)), {});
    }

    // ---- Several nodes (--store redis://, docs/adr/0011-several-nodes.md). Registries are per
    // process; an application that changes them at run time does so on every node with these.
    // broadcast() runs this node's handlers for `topic` before it returns, then every other
    // node's, on a store thread there. With the memory store it reaches this node only. It throws
    // mcp::StoreUnavailable when the shared store cannot be reached (this node's handlers have run).
    void on_broadcast(std::string topic, std::function<void(std::string_view payload)> handler);
    void broadcast(std::string_view topic, std::string_view payload);

    // ---- The core, for transports and embedding applications.
    // Handles one inbound message (its text, or a parsed document). Everything produced for it goes
    // to `sink`, ending with one complete(). Requests run on the handler pool; the call returns
    // before they finish. Thread-safe.
    void handle(std::string_view text, const Inbound& inbound, std::shared_ptr<CallSink> sink);
    void handle(boost::json::value message, const Inbound& inbound, std::shared_ptr<CallSink> sink);

    // HTTP: decides who each request comes from (Bearer tokens, mTLS headers from a proxy...).
    // Set before serving. Without one every request is anonymous.
    void set_authenticator(Authenticator authenticator);
    const Authenticator& authenticator() const;

    // Adds an interceptor around every request (mcp/server/interceptor.hpp). Before serving.
    void intercept(Interceptor interceptor);
    // Every OAuth scope a registered tool, prompt, resource or template requires, sorted, once
    // each (the scopes_supported of the protected resource metadata).
    std::vector<std::string> required_scopes() const;

    // A session for a new connection (stdio, in-process): messages tied to no call go to `channel`.
    std::shared_ptr<Session> open_session(std::shared_ptr<MessageSink> channel, std::string id = {});

    // Refuses new calls, ends subscriptions/listen streams, and returns at once.
    void begin_shutdown();
    // Waits up to `timeout` for the calls running on the handler pool; true when none is left.
    bool wait_idle(std::chrono::milliseconds timeout);
    // Cancels every call in flight, as notifications/cancelled would.
    void cancel_all();
    // begin_shutdown(), then waits for every call in flight. Idempotent; the destructor calls it.
    void shutdown();
    // Sends the spans still queued for the collector (ServerOptions::tracing), waiting at most
    // `within`; true when none is left. mcp::run calls it on SIGTERM, after the calls ended.
    bool flush_traces(std::chrono::milliseconds within);
    // Where the spans go (ServerOptions::tracing, as configure() set it); null when tracing is off.
    // The clients a handler calls through may share it (ClientOptions::tracer): their spans then
    // go out with the server's, under the same resource.
    std::shared_ptr<telemetry::Tracer> tracer() const;

    // Replaces the options; only before the first message is handled (mcp::run calls it with
    // what the command line and configuration say). Throws std::invalid_argument for bad values.
    void configure(ServerOptions options);

    const Implementation& info() const;
    // The ring that seals tokens: the configured one, or a generated single-node key.
    const KeyRing& key_ring();
    const ServerOptions& options() const;
    // Accessors whose thread-local values travel from the transport thread to the handler.
    ContextRegistry& context_registry();

private:
    friend detail::SessionService& detail::session_service(Server& server);
    friend bool detail::answers_without_store(const Server& server, const jsonrpc::Message& message);
    friend telemetry::Tracer* detail::tracer(const Server& server);
    friend std::stop_source detail::handle_parsed(Server& server, boost::json::value document, const Inbound& inbound,
                                                  std::shared_ptr<CallSink> sink);
    friend class Extension;

    void add_tool(detail::ToolDefinition def);
    void add_prompt(detail::PromptDefinition def);
    void add_resource(detail::ResourceDefinition def);
    void add_template(detail::TemplateDefinition def);
    // `extension`: the declared extension that registers it; empty for the application's own.
    void add_method(detail::MethodDefinition def, std::string_view extension);

    std::unique_ptr<detail::ServerCore> core_;
};

// A declared extension (Server::extension): registers the methods its specification defines. Such
// a method may take any name the server does not serve yet ("skills/list", "tasks/get").
class Extension {
public:
    const std::string& id() const { return id_; }

    template <class Name, class F>
    requires std::convertible_to<Name, std::string> Extension& method(Name&& name, F&& fn) {
        MethodSpec spec;
        spec.name = std::forward<Name>(name);
        return method(std::move(spec), std::forward<F>(fn));
    }
    template <class F>
    Extension& method(MethodSpec spec, F&& fn) {
        server_->add_method(detail::make_method(std::move(spec), std::forward<F>(fn)), id_);
        return *this;
    }

private:
    friend class Server;
    Extension(Server& server, std::string id) : server_(&server), id_(std::move(id)) {}

    Server* server_;
    std::string id_;
};

}  // namespace mcp
