#include "client/client_core.hpp"
#include "client/client_span.hpp"

#include "client/input_answers.hpp"
#include "client/mrtr.hpp"
#include "client/negotiation.hpp"
#include "client/wire.hpp"
#include "protocol/methods.hpp"
#include "telemetry/tracer.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>

#include <map>
#include <stdexcept>

namespace mcp {

namespace {

std::vector<std::string> versions_of(const ClientOptions& options) {
    std::vector<std::string> out;
    for (auto v : detail::client_versions()) {
        if (options.protocol_version == "auto" || options.protocol_version == v) out.emplace_back(v);
    }
    if (out.empty())
        throw std::invalid_argument("mcp::Client does not speak protocol version \"" + options.protocol_version + "\"");
    return out;
}

// A blocking caller on a pool thread lets the pool start another thread meanwhile.
class BlockingOnPool {
public:
    BlockingOnPool() : pool_(detail::HandlerPool::current()) {
        if (pool_ != nullptr) pool_->begin_blocking();
    }
    ~BlockingOnPool() {
        if (pool_ != nullptr) pool_->end_blocking();
    }
    BlockingOnPool(const BlockingOnPool&) = delete;
    BlockingOnPool& operator=(const BlockingOnPool&) = delete;

private:
    detail::HandlerPool* pool_;
};

bool cacheable(std::string_view method) {
    const auto* info = detail::find_method_info(method);
    return info != nullptr && info->cache != detail::Cache::none;
}

}  // namespace

Client::Impl::Impl(std::shared_ptr<ClientTransport> t, ClientOptions o)
    : options(std::move(o)),
      versions(versions_of(options)),
      capabilities(detail::client_capabilities(options)),
      client_info(to_wire(options.info).as_object()),
      runner(options.io_context),
      cache(options.cache_entries),
      transport(std::move(t)),
      pool(options.callbacks),
      notifications(std::make_shared<detail::CallbackQueue>(pool, options.max_queued_notifications)),
      log_level(options.log_level),
      roots(options.roots) {
    if (!transport) throw std::invalid_argument("mcp::Client needs a transport");
    if (options.tracer)
        tracer = options.tracer;
    else if (!options.tracing.endpoint.empty())
        tracer = std::make_shared<telemetry::Tracer>(options.tracing, options.info.name);
}

Client::Impl::~Impl() = default;

void Client::Impl::init() {
    std::weak_ptr<Impl> weak = weak_from_this();
    peer = std::make_shared<detail::Peer>(
        transport, runner.io(),
        detail::PeerOptions{{.max_message_bytes = options.max_message_bytes}, options.max_server_requests},
        detail::PeerHandlers{
            .request =
                [weak](detail::ServerRequest r) {
                    if (auto self = weak.lock()) self->on_server_request(std::move(r));
                },
            .notification =
                [weak](std::string_view method, const boost::json::object& params) {
                    if (auto self = weak.lock()) self->on_notification(method, params);
                },
            .diagnostic =
                [weak](std::string_view line) {
                    if (auto self = weak.lock()) self->on_diagnostic(line);
                },
            .closed =
                [weak](const std::string& reason) {
                    if (auto self = weak.lock()) self->on_closed(reason);
                },
        });
}

Era Client::Impl::era() const { return era_.load(std::memory_order_acquire); }

std::string Client::Impl::version() const {
    std::lock_guard lock(mutex);
    return version_;
}

std::shared_ptr<const std::string> Client::Impl::envelope() const {
    std::lock_guard lock(mutex);
    if (!envelope_.members || envelope_.version != version_ || envelope_.log_level != log_level) {
        envelope_ = {version_, log_level,
                     std::make_shared<const std::string>(
                         detail::envelope_members(version_, capabilities, client_info, log_level))};
    }
    return envelope_.members;
}

std::shared_ptr<const std::string> Client::Impl::envelope(const CallOptions& call) const {
    if (!call.capabilities && !call.log_level) return envelope();
    std::lock_guard lock(mutex);
    return std::make_shared<const std::string>(detail::envelope_members(
        version_, call.capabilities ? detail::capabilities_for_call(capabilities, *call.capabilities) : capabilities,
        client_info, call.log_level ? call.log_level : log_level));
}

void Client::Impl::check_may_block() const {
    if (runner.in_io_thread())
        throw std::logic_error(
            "a blocking mcp::Client call on the client's I/O thread would wait for itself; use async_request");
}

void Client::Impl::check_era(Era wanted, std::string_view what) const {
    if (era() != wanted)
        throw std::logic_error(std::string(what) + " exists only in the " +
                               (wanted == Era::stateless ? "2026-07-28" : "2025-11-25 and earlier") + " revisions");
}

// ---- The path of a call.

void Client::Impl::start(std::shared_ptr<const CallSpec> call, int round, const boost::json::object& params,
                         detail::Completion done) {
    const bool modern = era() == Era::stateless;
    const bool cached = modern && cacheable(call->method);
    if (cached && round == 0 && !call->options.fresh) {
        if (auto hit = cache.get(call->method, params)) {
            done({std::move(*hit), nullptr});
            return;
        }
    }
    boost::json::object key;  // what a cached result is filed under
    if (cached) key = params;

    detail::RequestSpec spec;
    if (modern) spec.envelope = envelope(call->options);
    if (round == 0) spec.id = call->id;
    if (transport->mirrors_headers()) {
        spec.protocol_version = call->method == "initialize" ? std::string() : version();
        spec.param_headers = call->param_headers;
    }
    if (!call->long_lived) {
        spec.timeout = call->options.timeout.value_or(options.request_timeout);
        spec.max_total = call->options.max_total_timeout.value_or(options.max_request_timeout);
    }
    spec.stop = call->options.stop;
    if (auto on_progress = call->options.on_progress) {
        std::weak_ptr<Impl> weak = weak_from_this();
        spec.on_progress = [weak, on_progress](const boost::json::object& raw) {
            auto self = weak.lock();
            if (!self) return;
            try {
                self->notify_application(
                    [on_progress, progress = detail::progress_from_wire(raw)] { on_progress(progress); });
            } catch (const std::invalid_argument& e) {
                detail::log().warn("client: dropped a malformed progress notification: {}", e.what());
            }
        };
    }
    // No input rounds and no cache on the 2025 wire: nothing to do before `done`, which may read the
    // reply from its text (not when a span reads the result's isError).
    if (!modern && !tracer) spec.reply_as_text = call->reply_as_text;
    detail::Completion answered =
        !modern ? std::move(done)
                : [self = shared_from_this(), call, round, key = std::move(key),
                   done = std::move(done)](detail::Outcome outcome) mutable {
                      self->finish(std::move(call), round, key, std::move(outcome), std::move(done));
                  };
    // The trace goes in the request's _meta: without a tracer the caller's context as it came;
    // with one, a CLIENT span for this request (each round of a call is one) and its traceparent.
    if (!tracer) {
        if (call->options.trace) detail::pass_trace_on(*call->options.trace, spec);
    } else if (auto span = detail::begin_client_span(*tracer, call->method, call->options, params, spec)) {
        answered = [self = shared_from_this(), span = std::shared_ptr<telemetry::SpanData>(std::move(span)),
                    answered = std::move(answered)](detail::Outcome outcome) {
            detail::end_client_span(*self->tracer, *span, outcome, self->version());
            answered(std::move(outcome));
        };
    }
    peer->request(call->method, params, std::move(spec), std::move(answered));
}

void Client::Impl::finish(std::shared_ptr<const CallSpec> call, int round, const boost::json::object& key,
                          detail::Outcome outcome, detail::Completion done) {
    if (!outcome.error) {
        if (detail::is_input_required(outcome.result)) {
            next_round(std::move(call), round, outcome.result.as_object(), std::move(done));
            return;
        }
        if (cacheable(call->method) && outcome.result.is_object())
            cache.put(call->method, key, outcome.result.as_object());
    }
    done(std::move(outcome));
}

// The server asked for input: the application answers on the pool, and the retry goes out.
void Client::Impl::next_round(std::shared_ptr<const CallSpec> call, int round, const boost::json::object& result,
                              detail::Completion done) {
    if (round >= options.max_input_rounds) {
        done({nullptr, std::make_exception_ptr(InputRoundsExceeded(round))});
        return;
    }
    detail::InputRequired input;
    try {
        input = detail::read_input_required(result);
    } catch (const std::invalid_argument& e) {
        done({nullptr,
              std::make_exception_ptr(ProtocolViolation(std::string("malformed input_required result: ") + e.what()))});
        return;
    }
    auto answer = [self = shared_from_this(), call, round, input = std::move(input), done]() mutable {
        const auto stopped = [&] { return call->options.stop.stop_requested(); };
        if (stopped()) return done({nullptr, std::make_exception_ptr(Cancelled())});
        boost::json::object params;
        try {
            params = detail::retry_params(call->params, input, self->input_answerer(call->options, input.requests));
        } catch (...) {
            return done({nullptr, std::current_exception()});
        }
        if (stopped()) return done({nullptr, std::make_exception_ptr(Cancelled())});
        self->start(std::move(call), round + 1, params, std::move(done));
    };
    if (!pool.try_submit(std::move(answer), detail::Admission::always))
        done({nullptr, std::make_exception_ptr(ConnectionClosed("the client is closing"))});
}

detail::InputAnswerer Client::Impl::input_answerer(const CallOptions& call) {
    std::optional<std::vector<Root>> current_roots;
    {
        std::lock_guard lock(mutex);
        current_roots = roots;
    }
    return [self = shared_from_this(), elicitation = call.elicitation, sampling = call.sampling, roots = call.roots,
            current_roots](const detail::InputRequest& r) {
        auto handlers = self->options.handlers;
        if (elicitation && handlers.elicitation) {
            handlers.elicitation = [&](const Elicitation& request) { return elicitation(request, r.key); };
        }
        if (sampling && handlers.sampling) {
            handlers.sampling = [&](const SamplingRequest& request) { return sampling(request, r.key); };
        }
        if (roots && (handlers.roots || current_roots)) handlers.roots = [&] { return roots(r.key); };
        try {
            return detail::answer_input(handlers, current_roots, r.method, r.params);
        } catch (const Error& e) {
            throw ProtocolViolation("the server asked for " + r.method + " (" + r.key + "): " + e.message());
        }
    };
}

detail::InputAnswerer Client::Impl::input_answerer(const CallOptions& call,
                                                   const std::vector<detail::InputRequest>& requests) {
    auto each = input_answerer(call);
    if (!call.input_round) return each;
    bool has_roots = false;
    {
        std::lock_guard lock(mutex);
        has_roots = roots.has_value();
    }
    std::vector<RoundRequest> together;
    for (const auto& r : requests) {
        if (auto request = detail::round_request(options.handlers, has_roots, r.key, r.method, r.params))
            together.push_back(std::move(*request));
    }
    if (together.empty()) return each;
    std::vector<RoundAnswer> answers;
    try {
        answers = call.input_round(together);
    } catch (const Error& e) {
        throw ProtocolViolation("the server asked for input (" + together.front().key + ", ...): " + e.message());
    }
    if (answers.size() != together.size())
        throw std::logic_error("CallOptions::input_round: one answer for each request, in order");
    auto results = std::make_shared<std::map<std::string, boost::json::object, std::less<>>>();
    for (std::size_t i = 0; i < together.size(); ++i)
        results->emplace(together[i].key, detail::round_result(together[i], std::move(answers[i])));
    return [each = std::move(each), results](const detail::InputRequest& r) {
        auto found = results->find(r.key);
        return found != results->end() ? found->second : each(r);
    };
}

boost::json::value Client::Impl::call(const std::shared_ptr<const CallSpec>& spec) {
    check_may_block();
    struct Wait {
        std::mutex mutex;
        std::condition_variable done_cv;
        // Emplaced, not assigned: the result keeps the storage it was parsed into (an assignment
        // across storages would copy it).
        std::optional<detail::Outcome> outcome;
    };
    auto wait = std::make_shared<Wait>();
    start(spec, 0, spec->params, [wait](detail::Outcome outcome) {
        {
            std::lock_guard lock(wait->mutex);
            wait->outcome.emplace(std::move(outcome));
        }
        wait->done_cv.notify_all();
    });
    {
        BlockingOnPool blocking;
        std::unique_lock lock(wait->mutex);
        wait->done_cv.wait(lock, [&] { return wait->outcome.has_value(); });
    }
    if (wait->outcome->error) std::rethrow_exception(wait->outcome->error);
    return std::move(wait->outcome->result);
}

boost::json::value Client::Impl::call(std::string method, boost::json::object params, const CallOptions& options) {
    auto spec = std::make_shared<CallSpec>();
    spec->method = std::move(method);
    spec->params = std::move(params);
    spec->options = options;
    return call(std::move(spec));
}

// ---- What the server sends unasked.

void Client::Impl::notify_application(std::function<void()> callback) { notifications->push(std::move(callback)); }

void Client::Impl::on_server_request(detail::ServerRequest request) {
    const auto id = request.id;
    auto answer = [self = shared_from_this(), request = std::move(request)] {
        std::optional<std::vector<Root>> current_roots;
        {
            std::lock_guard lock(self->mutex);
            current_roots = self->roots;
        }
        try {
            self->peer->respond(request.id, detail::answer_input(self->options.handlers, current_roots, request.method,
                                                                 request.params));
        } catch (const Error& e) {
            self->peer->respond_error(request.id, e.code(), e.message());
        } catch (const std::exception& e) {
            self->peer->respond_error(request.id, error_code::internal_error, e.what());
        }
    };
    if (!pool.try_submit(std::move(answer), detail::Admission::always))
        peer->respond_error(id, error_code::internal_error, "The client is closing");
}

void Client::Impl::on_notification(std::string_view method, const boost::json::object& params) {
    const auto& h = options.handlers;
    try {
        if (method == "notifications/message") {
            if (h.log) notify_application([cb = h.log, m = detail::log_message_from_wire(params)] { cb(m); });
        } else if (method == "notifications/tools/list_changed") {
            cache.forget_method("tools/list");
            tools.forget_all();
            if (h.list_changed) notify_application([cb = h.list_changed] { cb(ListKind::tools); });
        } else if (method == "notifications/prompts/list_changed") {
            cache.forget_method("prompts/list");
            if (h.list_changed) notify_application([cb = h.list_changed] { cb(ListKind::prompts); });
        } else if (method == "notifications/resources/list_changed") {
            cache.forget_method("resources/list");
            cache.forget_method("resources/templates/list");
            if (h.list_changed) notify_application([cb = h.list_changed] { cb(ListKind::resources); });
        } else if (method == "notifications/resources/updated") {
            const auto* uri = params.if_contains("uri");
            if (uri == nullptr || !uri->is_string()) throw std::invalid_argument("missing \"uri\"");
            cache.forget_read(uri->get_string());
            if (h.resource_updated)
                notify_application([cb = h.resource_updated, u = std::string(uri->get_string())] { cb(u); });
        } else if (method == "notifications/elicitation/complete") {
            const auto* id = params.if_contains("elicitationId");
            if (id == nullptr || !id->is_string()) throw std::invalid_argument("missing \"elicitationId\"");
            if (h.elicitation_complete)
                notify_application([cb = h.elicitation_complete, i = std::string(id->get_string())] { cb(i); });
        } else if (method == "notifications/tasks/status" || method == "notifications/tasks") {
            if (h.task_status) notify_application([cb = h.task_status, t = detail::task_from_wire(params)] { cb(t); });
        } else if (method == "notifications/subscriptions/acknowledged") {
            on_acknowledged(params);
        }
    } catch (const std::invalid_argument& e) {
        detail::log().warn("client: dropped a malformed {}: {}", method, e.what());
    }
}

void Client::Impl::on_diagnostic(std::string_view line) {
    if (options.handlers.server_stderr) {
        notify_application([cb = options.handlers.server_stderr, text = std::string(line)] { cb(text); });
    } else {
        detail::log().info("server stderr: {}", detail::printable(line, 1000));
    }
}

void Client::Impl::on_closed(const std::string& reason) {
    {
        std::lock_guard lock(mutex);
        transport_done = true;
    }
    transport_closed.notify_all();
    detail::log().debug("client: the transport closed: {}", reason);
}

void Client::Impl::close() {
    if (detail::HandlerPool::current() == &pool)
        throw std::logic_error("mcp::Client::close() from one of the client's own callbacks would wait for itself");
    check_may_block();
    bool wait_for_transport = false;
    {
        std::lock_guard lock(mutex);
        if (closed) return;
        closed = true;
        wait_for_transport = opened;
    }
    peer->close("the client was closed");
    if (wait_for_transport) {
        std::unique_lock lock(mutex);
        // The transport's own shutdown is bounded (stdio: two grace periods and SIGKILL); this is a backstop.
        if (!transport_closed.wait_for(lock, std::chrono::seconds(60), [&] { return transport_done; }))
            detail::log().warn("client: the transport did not report its end within 60 s");
    }
    // The spans of the last calls go out first, within the exporter's timeout; a shared tracer's
    // owner flushes it.
    if (tracer && !options.tracer && !tracer->flush(options.tracing.export_timeout))
        detail::log().warn("client: spans still queued at close were lost");
    pool.shutdown();
    runner.stop();
}

}  // namespace mcp
