#include <mcp/server/server.hpp>

#include "server/call.hpp"
#include "server/core.hpp"
#include "server/dispatch.hpp"
#include "server/methods/methods.hpp"
#include "server/request_context_impl.hpp"
#include "store/store_metrics.hpp"
#include "telemetry/tracer.hpp"

#include <mcp/protocol/errors.hpp>

#include <stdexcept>

namespace mcp {

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
    core_->tracer = options.tracing.endpoint.empty()
                        ? nullptr
                        : std::make_shared<telemetry::Tracer>(options.tracing, core_->info.name);
    core_->audit = options.audit.path.empty() ? nullptr : std::make_unique<detail::AuditLog>(options.audit);
    const auto& release = options.memory_release;
    core_->memory_releaser =
        release.interval.count() > 0
            ? detail::MemoryReleaser::acquire({.interval = release.interval, .min_bytes = release.min_bytes})
            : nullptr;
    core_->options = std::move(options);
}

Server::~Server() { shutdown(); }

const Implementation& Server::info() const { return core_->info; }
const KeyRing& Server::key_ring() { return core_->keys(); }
const ServerOptions& Server::options() const { return core_->options; }
ContextRegistry& Server::context_registry() { return *core_->context_registry; }

void Server::set_authenticator(Authenticator authenticator) {
    if (core_->serving()) throw std::logic_error("Server::set_authenticator must be called before serving starts");
    core_->authenticator = std::move(authenticator);
}

const Authenticator& Server::authenticator() const { return core_->authenticator; }

void Server::intercept(Interceptor interceptor) {
    if (core_->serving()) throw std::logic_error("Server::intercept must be called before serving starts");
    if (!interceptor) throw std::invalid_argument("an empty interceptor");
    core_->interceptors.push_back(std::move(interceptor));
}

std::shared_ptr<Session> Server::open_session(std::shared_ptr<MessageSink> channel, std::string id) {
    return core_->sessions().open(std::move(channel), std::move(id));
}

detail::SessionService& detail::session_service(Server& server) { return server.core_->sessions(); }
bool detail::answers_without_store(const Server& server, const jsonrpc::Message& message) {
    return answers_without_store(*server.core_, message);
}
telemetry::Tracer* detail::tracer(const Server& server) { return server.core_->tracer.get(); }

void Server::watch_resource_subscriptions(ResourceWatcher watcher) { core_->resource_watchers.add(std::move(watcher)); }

void Server::on_broadcast(std::string topic, std::function<void(std::string_view)> handler) {
    core_->nodes.on_broadcast(std::move(topic), std::move(handler));
}

void Server::broadcast(std::string_view topic, std::string_view payload) { core_->nodes.broadcast(topic, payload); }

void Server::begin_shutdown() {
    core_->shutting_down.store(true);
    detail::end_listens(*core_);
}

bool Server::wait_idle(std::chrono::milliseconds timeout) { return core_->calls.wait_idle(timeout); }

void Server::cancel_all() { core_->calls.cancel_all(); }

bool Server::flush_traces(std::chrono::milliseconds within) {
    return core_->tracer == nullptr || core_->tracer->flush(within);
}

std::shared_ptr<telemetry::Tracer> Server::tracer() const { return core_->tracer; }

void Server::shutdown() {
    begin_shutdown();
    if (core_->started()) core_->pool().shutdown();
}

namespace {

// `scratch`: where the server may build this call's larger results (list pages): the message's
// own arena when the server parsed it, default storage when an embedder handed in a value (its
// storage is the embedder's, with a lifetime and thread-safety the server cannot know).
// Returns the call's stop source when the message is a request.
std::stop_source serve(detail::ServerCore& core, boost::json::value message, boost::json::storage_ptr scratch,
                       const Inbound& inbound, std::shared_ptr<CallSink> sink) {
    core.pool();  // serving has begun: options are fixed from here on
    auto call = std::make_shared<detail::CallState>(core, std::move(message), std::move(sink), inbound.session);
    call->scratch = std::move(scratch);
    auto classified = jsonrpc::classify(call->document);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&classified)) {
        call->sink->complete(jsonrpc::make_error(failure->id, failure->code, failure->message));
        return std::stop_source(std::nostopstate);
    }
    call->message = std::get<jsonrpc::Message>(std::move(classified));
    const auto& msg = call->message;

    if (msg.kind == jsonrpc::Kind::notification) {
        detail::handle_notification(core, msg, inbound.session);
        call->sink->complete(std::nullopt);
        return std::stop_source(std::nostopstate);
    }
    if (msg.kind == jsonrpc::Kind::response) {
        try {
            detail::deliver_response(core, call->document, msg, inbound.session);
        } catch (const StoreUnavailable& e) {
            // Not acknowledged: the client sends its answer again.
            if (detail::metrics::enabled()) detail::store_metrics().unavailable.add();
            call->sink->complete_overloaded(jsonrpc::make_error(nullptr, error_code::internal_error,
                                                                std::string("Store unavailable: ") + e.what()));
            return std::stop_source(std::nostopstate);
        }
        call->sink->complete(std::nullopt);
        return std::stop_source(std::nostopstate);
    }

    detail::handle_request(core, call, inbound);
    return call->stop;
}

}  // namespace

void Server::handle(std::string_view text, const Inbound& inbound, std::shared_ptr<CallSink> sink) {
    auto parsed = jsonrpc::parse(text, core_->options.limits);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&parsed)) {
        sink->complete(jsonrpc::make_error(failure->id, failure->code, failure->message));
        return;
    }
    detail::handle_parsed(*this, std::move(std::get<boost::json::value>(parsed)), inbound, std::move(sink));
}

void Server::handle(boost::json::value message, const Inbound& inbound, std::shared_ptr<CallSink> sink) {
    serve(*core_, std::move(message), {}, inbound, std::move(sink));
}

std::stop_source detail::handle_parsed(Server& server, boost::json::value document, const Inbound& inbound,
                                       std::shared_ptr<CallSink> sink) {
    auto arena = document.storage();
    return serve(*server.core_, std::move(document), std::move(arena), inbound, std::move(sink));
}

}  // namespace mcp
