#include <mcp/server/server.hpp>

#include "server/call.hpp"
#include "server/core.hpp"
#include "server/dispatch.hpp"
#include "server/request_context_impl.hpp"
#include "server/methods/methods.hpp"
#include "util/log.hpp"

#include <mcp/store/store_errors.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace mcp {

namespace detail {

namespace {

HandlerPoolOptions pool_options(const ExecutionOptions& e) {
    HandlerPoolOptions o;
    o.core_threads = e.core_threads != 0 ? e.core_threads : std::max(2u, std::thread::hardware_concurrency());
    o.max_threads = std::max(e.max_threads, o.core_threads);
    o.queue_capacity = e.queue_capacity;
    o.grow_after = e.grow_after;
    o.idle_timeout = e.idle_timeout;
    o.stack_size = e.stack_size;
    return o;
}

bool valid_tool_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
               c == '.';
    });
}

std::string default_resource_name(const std::string& uri) {
    const auto cut = uri.find_last_of("/:");
    std::string name = cut == std::string::npos ? uri : uri.substr(cut + 1);
    return name.empty() ? uri : name;
}

void put_if(boost::json::object& o, std::string_view key, const std::string& value) {
    if (!value.empty()) o[key] = value;
}

boost::json::value resource_wire(std::string_view key, const std::string& id, const ResourceSpec& spec) {
    boost::json::object o;
    o[key] = id;
    o["name"] = spec.name;
    put_if(o, "title", spec.title);
    put_if(o, "description", spec.description);
    put_if(o, "mimeType", spec.mime_type);
    if (spec.size) o["size"] = *spec.size;
    if (!spec.annotations.empty()) o["annotations"] = to_wire(spec.annotations);
    put_icons(o, spec.icons);
    put_meta(o, spec.meta);
    return o;
}

}  // namespace

ServerCore::ServerCore(Implementation i, ServerOptions o)
    : info(std::move(i)),
      server_info(boost::json::object{{"name", info.name}, {"version", info.version}}),
      options(std::move(o)) {}

ServerCore::~ServerCore() {
    if (backend_ && backend_->cluster()) {
        for (const auto id : cluster_subscriptions_) backend_->cluster()->unsubscribe(id);
    }
}

Backend& ServerCore::backend() { return *backend_ptr(); }

const std::shared_ptr<Backend>& ServerCore::backend_ptr() {
    std::call_once(backend_once_, [this] {
        backend_ = make_backend(options.store);
        if (auto* cluster = backend_->cluster()) join_cluster(*cluster);
    });
    return backend_;
}

SessionService& ServerCore::sessions() {
    std::call_once(sessions_once_, [this] {
        const auto& o = options.sessions;
        sessions_ = std::make_unique<SessionService>(
            backend_ptr(), SessionService::Settings{o.max_sessions, o.idle_timeout, o.journal_events_per_stream,
                                                    o.journal_bytes_per_stream, options.default_client_log_level,
                                                    [this]() -> const KeyRing& { return keys(); }});
        sessions_made_.store(sessions_.get());
    });
    return *sessions_;
}

// Signals carry "<node>\n<payload>"; a node has already acted on its own.
void ServerCore::join_cluster(Cluster& cluster) {
    auto from_elsewhere = [&cluster](std::string_view signal, std::string_view& payload) {
        const auto cut = signal.find('\n');
        if (cut == std::string_view::npos || signal.substr(0, cut) == cluster.node_id()) return false;
        payload = signal.substr(cut + 1);
        return true;
    };
    // A resource changed on another node: this node's 2026 listen streams hear of it. (2025
    // sessions were told by the node where it changed, through the store.)
    cluster_subscriptions_.push_back(cluster.subscribe("resource", [this, from_elsewhere](std::string_view signal) {
        std::string_view uri;
        if (from_elsewhere(signal, uri)) listens.resource_updated(uri);
    }));
    // An application's broadcast from another node.
    cluster_subscriptions_.push_back(cluster.subscribe("app", [this, from_elsewhere](std::string_view signal) {
        std::string_view message;
        if (!from_elsewhere(signal, message)) return;
        const auto cut = message.find('\n');
        if (cut != std::string_view::npos) run_broadcast_handlers(message.substr(0, cut), message.substr(cut + 1));
    }));
}

void ServerCore::on_broadcast(std::string topic, std::function<void(std::string_view)> handler) {
    std::lock_guard lock(broadcast_mutex_);
    broadcast_handlers_.emplace(std::move(topic), std::move(handler));
}

void ServerCore::run_broadcast_handlers(std::string_view topic, std::string_view payload) {
    std::vector<std::function<void(std::string_view)>> handlers;
    {
        std::lock_guard lock(broadcast_mutex_);
        auto [first, last] = broadcast_handlers_.equal_range(topic);
        for (auto it = first; it != last; ++it) handlers.push_back(it->second);
    }
    for (const auto& handler : handlers) {
        try {
            handler(payload);
        } catch (const std::exception& e) {
            log().warn("broadcast handler for {} failed: {}", topic, e.what());
        }
    }
}

void ServerCore::broadcast(std::string_view topic, std::string_view payload) {
    run_broadcast_handlers(topic, payload);  // this node first, before the caller goes on
    if (auto* cluster = backend().cluster()) {
        cluster->publish("app", cluster->node_id() + '\n' + std::string(topic) + '\n' + std::string(payload));
    }
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
    if (auto* cluster = backend().cluster()) {
        try {
            cluster->publish("resource", cluster->node_id() + '\n' + std::string(uri));
        } catch (const StoreUnavailable& e) {
            log().warn("resource update not sent to the other nodes' listen streams: {}", e.what());
        }
    }
    for (const auto& session : sessions().subscribers(uri)) session->notify(message);
}

const KeyRing& ServerCore::keys() {
    std::call_once(keys_once_, [this] {
        if (options.keys) return;
        options.keys = KeyRing::generate();
        log().warn("no sealing key configured (--secret-file or MCP_SECRET): generated key {}; its tokens do not "
                   "survive a restart and other nodes do not accept them", options.keys->active_key_id());
    });
    return *options.keys;
}

HandlerPool& ServerCore::pool() {
    std::call_once(pool_once_, [this] {
        pool_ = std::make_unique<HandlerPool>(pool_options(options.execution));
        pool_started_.store(true);
    });
    return *pool_;
}

void ServerCore::call_started(const std::shared_ptr<CallState>& call) {
    std::lock_guard lock(calls_mutex_);
    calls_.emplace(call.get(), call);
}

void ServerCore::call_ended(const CallState& call) {
    std::lock_guard lock(calls_mutex_);
    calls_.erase(&call);
    if (calls_.empty()) calls_idle_.notify_all();
}

bool ServerCore::wait_idle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(calls_mutex_);
    return calls_idle_.wait_for(lock, timeout, [&] { return calls_.empty(); });
}

void ServerCore::cancel_all() {
    std::vector<std::shared_ptr<CallState>> calls;
    {
        std::lock_guard lock(calls_mutex_);
        for (auto& [ptr, weak] : calls_) {
            if (auto call = weak.lock()) calls.push_back(std::move(call));
        }
    }
    for (auto& call : calls) {
        call->cancelled_by_client.store(true);
        call->stop.request_stop();
    }
}

void Completers::set(std::string owner, std::string argument, Completer completer) {
    std::lock_guard lock(mutex_);
    completers_[{std::move(owner), std::move(argument)}] = std::move(completer);
}

Completer Completers::find(std::string_view owner, std::string_view argument) const {
    std::lock_guard lock(mutex_);
    auto it = completers_.find(std::pair<std::string, std::string>(owner, argument));
    return it == completers_.end() ? Completer() : it->second;
}

}  // namespace detail


Server::Server(Implementation info, ServerOptions options)
    : core_(std::make_unique<detail::ServerCore>(std::move(info), std::move(options))) {
    if (core_->info.name.empty()) throw std::invalid_argument("the server needs a name");
    detail::register_request_context_accessors();
    configure(core_->options);
}

void Server::configure(ServerOptions options) {
    if (core_->serving()) throw std::logic_error("Server::configure must be called before serving starts");
    if (options.page_size == 0) throw std::invalid_argument("page_size must be at least 1");
    if (options.limits.max_message_bytes == 0) throw std::invalid_argument("max_message_bytes must be at least 1");
    if (options.limits.max_depth == 0) throw std::invalid_argument("max_depth must be at least 1");
    if (options.execution.max_threads == 0) throw std::invalid_argument("max_threads must be at least 1");
    detail::check_store_url(options.store);
    core_->options = std::move(options);
}

Server::~Server() { shutdown(); }

const Implementation& Server::info() const { return core_->info; }
const KeyRing& Server::key_ring() { return core_->keys(); }
const ServerOptions& Server::options() const { return core_->options; }
ContextRegistry& Server::context_registry() { return *core_->context_registry; }

void Server::add_tool(detail::ToolDefinition def) {
    const std::string name = def.spec.name;
    if (!detail::valid_tool_name(name)) {
        throw std::invalid_argument("tool name \"" + name + "\" must match [A-Za-z0-9_.-]{1,64}");
    }
    if (def.spec.description.empty()) throw std::invalid_argument("tool " + name + " needs a description");
    const auto* type = def.input_schema.if_contains("type");
    if (type == nullptr || !type->is_string() || type->get_string() != "object") {
        throw std::invalid_argument("tool " + name + ": inputSchema must have \"type\": \"object\"");
    }
    std::optional<json::SchemaValidator> validator;
    std::vector<detail::HeaderParam> header_params;
    try {
        validator.emplace(def.input_schema);
        header_params = detail::header_params_of(def.input_schema);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("tool " + name + ": " + e.what());
    }

    boost::json::object wire;
    wire["name"] = name;
    detail::put_if(wire, "title", def.spec.title);
    wire["description"] = def.spec.description;
    wire["inputSchema"] = def.input_schema;
    if (def.output_schema) wire["outputSchema"] = *def.output_schema;
    if (auto a = to_wire(def.spec.annotations); !a.as_object().empty()) wire["annotations"] = std::move(a);
    put_icons(wire, def.spec.icons);
    put_meta(wire, def.spec.meta);

    auto entry = std::make_shared<detail::ToolEntry>(
        detail::ToolEntry{std::move(def), std::move(*validator), std::move(header_params), std::move(wire)});
    core_->tools.add(name, std::move(entry), "tool");
    core_->list_changed("tools");
}

bool Server::remove_tool(std::string_view name) {
    if (!core_->tools.remove(name)) return false;
    core_->list_changed("tools");
    return true;
}

void Server::add_prompt(detail::PromptDefinition def) {
    const std::string name = def.spec.name;
    if (name.empty()) throw std::invalid_argument("a prompt needs a name");
    if (def.spec.description.empty()) throw std::invalid_argument("prompt " + name + " needs a description");

    boost::json::object wire;
    wire["name"] = name;
    detail::put_if(wire, "title", def.spec.title);
    wire["description"] = def.spec.description;
    boost::json::array arguments;
    for (const auto& arg : def.spec.arguments) {
        boost::json::object a;
        a["name"] = arg.name;
        detail::put_if(a, "title", arg.title);
        detail::put_if(a, "description", arg.description);
        a["required"] = arg.required;
        arguments.push_back(std::move(a));
    }
    wire["arguments"] = std::move(arguments);
    put_icons(wire, def.spec.icons);
    put_meta(wire, def.spec.meta);

    core_->prompts.add(name, std::make_shared<detail::PromptEntry>(detail::PromptEntry{std::move(def), std::move(wire)}),
                       "prompt");
    core_->list_changed("prompts");
}

bool Server::remove_prompt(std::string_view name) {
    if (!core_->prompts.remove(name)) return false;
    core_->list_changed("prompts");
    return true;
}

void Server::add_resource(detail::ResourceDefinition def) {
    if (def.uri.empty()) throw std::invalid_argument("a resource needs a URI");
    if (def.spec.name.empty()) def.spec.name = detail::default_resource_name(def.uri);
    auto wire = detail::resource_wire("uri", def.uri, def.spec);
    const std::string uri = def.uri;
    core_->resources.add(uri, std::make_shared<detail::ResourceEntry>(detail::ResourceEntry{std::move(def), std::move(wire)}),
                         "resource");
    core_->list_changed("resources");
}

void Server::add_template(detail::TemplateDefinition def) {
    if (def.spec.name.empty()) def.spec.name = detail::default_resource_name(def.uri_template);
    auto wire = detail::resource_wire("uriTemplate", def.uri_template, def.spec);
    const std::string key = def.uri_template;
    UriTemplate matcher(key);
    auto entry = std::make_shared<detail::TemplateEntry>(
        detail::TemplateEntry{std::move(def), std::move(matcher), std::move(wire)});
    {
        std::unique_lock lock(core_->template_order_mutex);
        core_->templates.add(key, entry, "resource template");
        core_->template_order.push_back(entry);
    }
    core_->list_changed("resources");
}

bool Server::remove_resource(std::string_view uri) {
    if (!core_->resources.remove(uri)) return false;
    core_->list_changed("resources");
    return true;
}

bool Server::remove_resource_template(std::string_view uri_template) {
    {
        std::unique_lock lock(core_->template_order_mutex);
        if (!core_->templates.remove(uri_template)) return false;
        std::erase_if(core_->template_order, [&](const auto& e) { return e->def.uri_template == uri_template; });
    }
    core_->list_changed("resources");
    return true;
}

void Server::notify_resource_updated(std::string_view uri) { core_->resource_updated(uri); }

void Server::complete_prompt_argument(std::string prompt, std::string argument, Completer completer) {
    core_->prompt_completers.set(std::move(prompt), std::move(argument), std::move(completer));
}

void Server::complete_template_variable(std::string uri_template, std::string variable, Completer completer) {
    core_->template_completers.set(std::move(uri_template), std::move(variable), std::move(completer));
}

void Server::set_authenticator(Authenticator authenticator) {
    if (core_->serving()) throw std::logic_error("Server::set_authenticator must be called before serving starts");
    core_->authenticator = std::move(authenticator);
}

const Authenticator& Server::authenticator() const { return core_->authenticator; }

std::shared_ptr<Session> Server::open_session(std::shared_ptr<MessageSink> channel, std::string id) {
    return core_->sessions().open(std::move(channel), std::move(id));
}

detail::SessionService& Server::session_service() { return core_->sessions(); }

void Server::on_broadcast(std::string topic, std::function<void(std::string_view)> handler) {
    core_->on_broadcast(std::move(topic), std::move(handler));
}

void Server::broadcast(std::string_view topic, std::string_view payload) { core_->broadcast(topic, payload); }

void Server::begin_shutdown() {
    core_->shutting_down.store(true);
    detail::end_listens(*core_);
}

bool Server::wait_idle(std::chrono::milliseconds timeout) { return core_->wait_idle(timeout); }

void Server::cancel_all() { core_->cancel_all(); }

void Server::shutdown() {
    begin_shutdown();
    if (core_->started()) core_->pool().shutdown();
}

namespace {

// `scratch`: where the server may build this call's larger results (list pages): the message's
// own arena when the server parsed it, default storage when an embedder handed in a value (its
// storage is the embedder's, with a lifetime and thread-safety the server cannot know).
void serve(detail::ServerCore& core, boost::json::value message, boost::json::storage_ptr scratch, const Inbound& inbound,
           std::shared_ptr<CallSink> sink) {
    core.pool();  // serving has begun: options are fixed from here on
    auto call = std::make_shared<detail::CallState>(core, std::move(message), std::move(sink), inbound.session);
    call->scratch = std::move(scratch);
    auto classified = jsonrpc::classify(call->document);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&classified)) {
        call->sink->complete(jsonrpc::make_error(failure->id, failure->code, failure->message));
        return;
    }
    call->message = std::get<jsonrpc::Message>(std::move(classified));
    const auto& msg = call->message;

    if (msg.kind == jsonrpc::Kind::notification) {
        detail::handle_notification(core, msg, inbound.session);
        call->sink->complete(std::nullopt);
        return;
    }
    if (msg.kind == jsonrpc::Kind::response) {
        try {
            detail::deliver_response(core, call->document, msg, inbound.session);
        } catch (const StoreUnavailable& e) {
            // Not acknowledged: the client sends its answer again.
            call->sink->complete_overloaded(
                jsonrpc::make_error(nullptr, error_code::internal_error, std::string("Store unavailable: ") + e.what()));
            return;
        }
        call->sink->complete(std::nullopt);
        return;
    }

    detail::handle_request(core, call, inbound);
}

}  // namespace

void Server::handle(std::string_view text, const Inbound& inbound, std::shared_ptr<CallSink> sink) {
    auto parsed = jsonrpc::parse(text, core_->options.limits);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&parsed)) {
        sink->complete(jsonrpc::make_error(failure->id, failure->code, failure->message));
        return;
    }
    auto& message = std::get<boost::json::value>(parsed);
    auto arena = message.storage();
    serve(*core_, std::move(message), std::move(arena), inbound, std::move(sink));
}

void Server::handle(boost::json::value message, const Inbound& inbound, std::shared_ptr<CallSink> sink) {
    serve(*core_, std::move(message), {}, inbound, std::move(sink));
}

}  // namespace mcp
