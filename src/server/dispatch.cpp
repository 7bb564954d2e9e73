#include "server/dispatch.hpp"

#include "protocol/era.hpp"
#include "protocol/params.hpp"
#include "server/call_observer.hpp"
#include "server/call_span.hpp"
#include "server/client_limits.hpp"
#include "server/client_requests/request_state.hpp"
#include "server/client_requests/round_span.hpp"
#include "server/client_requests/rounds.hpp"
#include "server/methods/methods.hpp"
#include "server/request_context_impl.hpp"
#include "server/response_text.hpp"
#include "server/routing_headers.hpp"
#include "server/scope_guard.hpp"
#include "server/store_spans.hpp"
#include "server/trace_context.hpp"
#include "sessions/session_state.hpp"
#include "store/store_metrics.hpp"
#include "util/log.hpp"

#include <mcp/json/bind.hpp>
#include <mcp/protocol/errors.hpp>

#include <unordered_map>

namespace mcp::detail {

namespace {

void forget_roots(ServerCore&, const jsonrpc::Message&, const std::shared_ptr<Session>& session) {
    if (session) SessionState::of(*session).forget_roots();
}

// The function behind each method of the protocol table; every method has one.
const std::unordered_map<std::string_view, Method>& method_table() {
    static const auto table = [] {
        struct Binding {
            std::string_view name;
            MethodFn run = nullptr;
            NotificationFn notify = nullptr;
            InlineProbe runs_inline = nullptr;
            ScopesProbe scopes = nullptr;
        };
        const Binding bindings[] = {
            {.name = "initialize", .run = initialize},
            {.name = "ping", .run = ping},
            {.name = "logging/setLevel", .run = set_log_level},
            {.name = "resources/subscribe", .run = subscribe},
            {.name = "resources/unsubscribe", .run = unsubscribe},
            {.name = "server/discover", .run = discover},
            {.name = "subscriptions/listen"},  // a stream, not a call: start_listen
            {.name = "tools/list", .run = list_tools},
            {.name = "tools/call", .run = call_tool, .runs_inline = tool_runs_inline, .scopes = tool_scopes},
            {.name = "prompts/list", .run = list_prompts},
            {.name = "prompts/get", .run = get_prompt, .runs_inline = prompt_runs_inline, .scopes = prompt_scopes},
            {.name = "resources/list", .run = list_resources},
            {.name = "resources/templates/list", .run = list_resource_templates},
            {.name = "resources/read",
             .run = read_resource,
             .runs_inline = resource_runs_inline,
             .scopes = resource_scopes},
            {.name = "completion/complete", .run = complete},
            {.name = "tasks/get", .run = get_task},
            {.name = "tasks/cancel", .run = cancel_task},
            {.name = "tasks/update", .run = update_task},
            {.name = "tasks/result", .run = task_result},
            {.name = "tasks/list", .run = list_tasks},
            {.name = "notifications/initialized", .notify = initialized},
            {.name = "notifications/cancelled", .notify = cancelled},
            {.name = "notifications/roots/list_changed", .notify = forget_roots},
        };
        std::unordered_map<std::string_view, Method> out;
        for (const auto& b : bindings) {
            const auto* info = find_method_info(b.name);
            if (info == nullptr)
                throw std::logic_error("dispatch binds a method the protocol table lacks: " + std::string(b.name));
            out.emplace(b.name, Method{info, b.run, b.notify, b.runs_inline, b.scopes});
        }
        for (const auto& info : all_methods()) {
            if (!out.contains(info.name)) throw std::logic_error("no function serves " + std::string(info.name));
        }
        return out;
    }();
    return table;
}

boost::json::value error_response(const CallState& call, const Error& e) {
    int code = e.code();
    // The 2026-07-28 revision reports an unknown resource as invalid params.
    if (code == error_code::resource_not_found && call.exchange && call.exchange->era() == Era::stateless) {
        code = error_code::invalid_params;
    }
    return jsonrpc::make_error(call.message.id, code, e.message(), e.data());
}

// resultType, serverInfo and caching hints on every 2026-07-28 result.
void stamp_stateless_result(const ServerCore& core, Cache cache, boost::json::value& result) {
    auto& obj = result.as_object();
    if (!obj.contains("resultType")) obj["resultType"] = "complete";
    auto& meta = obj["_meta"];
    if (!meta.is_object()) meta = boost::json::object();
    meta.as_object()["io.modelcontextprotocol/serverInfo"] = core.server_info;
    if (cache == Cache::none) return;
    const auto ttl = cache == Cache::list ? core.options.cache.list_ttl : core.options.cache.read_ttl;
    if (!obj.contains("ttlMs")) obj["ttlMs"] = ttl.count();
    if (!obj.contains("cacheScope")) obj["cacheScope"] = core.options.cache.public_scope ? "public" : "private";
}

void reject(CallState& call, Era era, int code, const std::string& message) {
    auto response = jsonrpc::make_error(call.message.id, code, message);
    observe_answer(call, era, response);
    call.sink->complete(std::move(response));
}

const std::string& subject_of(const CallState& call) {
    static const std::string anonymous;
    const auto& principal = call.exchange->principal();
    return principal ? principal->subject : anonymous;
}

// The answers a 2026 retry carries: those sealed in requestState, and inputResponses.
void read_inputs(CallState& call) {
    const auto params = bind_params<RoundParams>(call.params());
    if (params.requestState) {
        auto state = open_request_state(call.core.keys(), *params.requestState,
                                        call.core.options.client_requests.request_state_ttl);
        if (state.method != call.message.method) throw InvalidParams("Invalid requestState: issued for another method");
        if (state.params_digest != params_digest(call.params()))
            throw InvalidParams("Invalid requestState: issued for other params");
        if (state.principal != subject_of(call))
            throw InvalidParams("Invalid requestState: issued to another principal");
        call.input.answers = std::move(state.answers);
        call.input.handler_state = std::move(state.handler_state);
    }
    if (params.inputResponses) {
        for (const auto& kv : *params.inputResponses) call.input.answers[kv.key()] = kv.value();
    }
}

// The handler asked for input the request does not carry: the requests, and the state that lets
// the retry pick up the answers gathered so far.
boost::json::value input_required(const CallState& call) {
    boost::json::object requests;
    for (const auto& r : call.input.pending)
        requests[r.key] = boost::json::object{{"method", r.method}, {"params", r.params}};
    RequestState state{
        std::string(call.message.method),
        params_digest(call.params()),
        subject_of(call),
        call.input.used,
        call.input.handler_state,
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count()};
    return boost::json::object{{"resultType", "input_required"},
                               {"inputRequests", std::move(requests)},
                               {"requestState", seal_request_state(call.core.keys(), state)}};
}

// A request for a method served in `era`, or nullptr: the protocol's, else one an application or
// an extension registered.
const Method* requested(const ServerCore& core, std::string_view name, Era era) {
    const Method* method = find_method(name);
    if (method == nullptr) {
        const auto* entry = core.catalog.methods.find(name);
        method = entry != nullptr ? &entry->binding : nullptr;
    }
    return method != nullptr && !method->info->notification && method->info->exists_in(era) ? method : nullptr;
}

// Era rules of 2026-07-28, in the order the spec gives: envelope, headers, version, method.
const Method* admit_stateless(CallState& call, const Inbound& inbound) {
    const auto& msg = call.message;
    const Method* method = requested(call.core, msg.method, Era::stateless);
    const Envelope envelope = read_envelope(msg, call.scratch);
    if (inbound.headers != nullptr) {
        check_routing_headers(msg, method != nullptr ? method->info->entity_param : std::string_view(),
                              *inbound.headers, envelope.client->protocol_version);
        call.headers = *inbound.headers;
    }
    if (!revision::is_stateless_era(envelope.client->protocol_version)) {
        boost::json::array supported;
        for (auto v : revision::stateless_era()) supported.emplace_back(v);
        throw Error(
            error_code::unsupported_protocol_version,
            "Unsupported protocol version: " + envelope.client->protocol_version,
            boost::json::object{{"supported", std::move(supported)}, {"requested", envelope.client->protocol_version}});
    }
    if (method == nullptr) throw Error(error_code::method_not_found, "Method not found: " + std::string(msg.method));
    call.exchange.emplace(Era::stateless, envelope.client, inbound.session, msg.id, progress_token_of(msg),
                          envelope.log_level, inbound.principal, inbound.client_address);
    call.method = method;
    if (method->info->rounds) read_inputs(call);
    return method;
}

const Method* admit_in_session(CallState& call, const Inbound& inbound) {
    const auto& msg = call.message;
    const Method* method = requested(call.core, msg.method, Era::sessions);
    if (method == nullptr) throw Error(error_code::method_not_found, "Method not found: " + std::string(msg.method));
    const auto& session = inbound.session;
    if (!method->info->before_initialize && (!session || !session->initialized())) {
        throw Error(error_code::invalid_request, "Not initialized: send initialize first");
    }
    call.exchange.emplace(Era::sessions, session ? session->client() : nullptr, session, msg.id, progress_token_of(msg),
                          std::nullopt, inbound.principal, inbound.client_address);
    call.method = method;
    return method;
}

// The transport classified the message already (Streamable HTTP), or the core does it here. On a
// connection without headers (stdio, in-process) the version its session negotiated stands for one.
Era era_of(const jsonrpc::Message& message, const Inbound& inbound) {
    if (inbound.era) return *inbound.era;
    const auto* headers = inbound.headers;
    if (headers && headers->protocol_version) return classify_era(message, *headers->protocol_version);
    const auto client = inbound.session && inbound.session->initialized() ? inbound.session->client() : nullptr;
    return classify_era(message, client ? std::string_view(client->protocol_version) : std::string_view());
}

// The trace context, with a span for this request: the transport's headers, else
// traceparent/tracestate in params._meta.
TraceContext trace_of(const jsonrpc::Message& msg, const Inbound& inbound) {
    if (!inbound.trace.traceparent.empty() || msg.params == nullptr) {
        auto trace = start_span(inbound.trace.traceparent, inbound.trace.tracestate);
        if (!trace.traceparent.empty()) trace.parent_local = inbound.trace.parent_local;
        return trace;
    }
    std::string_view traceparent;
    std::string_view tracestate;
    if (const auto* meta = msg.params->if_contains("_meta"); meta && meta->is_object()) {
        if (const auto* p = meta->get_object().if_contains("traceparent"); p && p->is_string())
            traceparent = p->get_string();
        if (const auto* s = meta->get_object().if_contains("tracestate"); s && s->is_string())
            tracestate = s->get_string();
    }
    return start_span(traceparent, tracestate);
}

// A call's turn on the handler pool, with the thread-local context of its request. Its client's
// place for calls in flight is given back after the first turn (taken out before it runs: once
// parked, the call may be resumed on another thread at any moment).
void run_pooled(const std::shared_ptr<CallState>& call) {
    const auto client_place = std::move(call->client_place);
    call->client_place.reset();
    auto scope = call->snapshot->restore();
    if (run_call(*call->method, call)) call->core.calls.ended(*call);
}

}  // namespace

const Method* find_method(std::string_view name) {
    const auto& table = method_table();
    auto it = table.find(name);
    return it == table.end() ? nullptr : &it->second;
}

void deliver_response(ServerCore& core, const boost::json::value& message, const jsonrpc::Message& response,
                      const std::shared_ptr<Session>& session) {
    if (!session || !response.id.is_string()) return;
    const std::string_view id = response.id.get_string();
    // Ids are sealed over the session they were sent to: another session's answer is dropped.
    const auto plain = core.keys().open("server-request", id);
    if (!plain || !plain->starts_with(session->id() + '\n')) {
        log().debug("dropping a response to a request this session did not get");
        return;
    }
    // The request's span may be another node's: its context came back sealed in the id.
    auto span = begin_answer_span(core, trace_note_of(*plain), id, message);
    bool delivered = false;
    {
        std::optional<StoreSpans> store_spans;
        std::optional<ObservingStore> observing;
        if (span) observing.emplace(&store_spans.emplace(*core.tracer, *span));
        delivered = core.sessions().deliver(id, message);
    }
    end_answer_span(core, std::move(span), *session, delivered);
    if (!delivered) log().debug("dropping a response to a request this session is not waiting for");
}

void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session) {
    const Method* method = find_method(message.method);
    if (method == nullptr || method->notify == nullptr) {
        log().debug("ignoring notification {}", printable(message.method));
        return;
    }
    try {
        method->notify(core, message, session);
    } catch (const Error& e) {
        log().debug("ignoring notification {}: {}", printable(message.method),
                    printable(e.message()));  // nobody to answer
    }
}

namespace {

// Whether the entry the request names (by `param`) runs on the calling thread and never parks.
template <class Registry>
bool names_inline_unparked(const Registry& registry, const jsonrpc::Message& message, std::string_view param) {
    const auto* name = message.params != nullptr ? message.params->if_contains(param) : nullptr;
    if (name == nullptr || !name->is_string()) return false;
    const auto entry = registry.find(name->get_string());
    return entry && entry->def.spec.runs_inline && !entry->def.spec.replayable;
}

}  // namespace

bool answers_without_store(const ServerCore& core, const jsonrpc::Message& message) {
    if (message.kind != jsonrpc::Kind::request) return false;
    const auto method = message.method;
    if (method == "ping" || method == "tools/list" || method == "prompts/list" || method == "resources/list" ||
        method == "resources/templates/list") {
        return true;
    }
    const auto* info = find_method_info(method);
    if (info == nullptr) return false;
    if (method == "tools/call") return names_inline_unparked(core.catalog.tools, message, info->entity_param);
    if (method == "prompts/get") return names_inline_unparked(core.catalog.prompts, message, info->entity_param);
    if (method == "resources/read") return names_inline_unparked(core.catalog.resources, message, info->entity_param);
    return false;
}

void handle_request(ServerCore& core, const std::shared_ptr<CallState>& call, const Inbound& inbound) {
    const Method* method = nullptr;
    const Era era = era_of(call->message, inbound);
    if (core.tracer) begin_server_span(*call, trace_of(call->message, inbound), inbound.network);
    try {
        method = era == Era::stateless ? admit_stateless(*call, inbound) : admit_in_session(*call, inbound);
    } catch (const Error& e) {
        auto response = error_response(*call, e);
        observe_answer(*call, era, response);
        call->sink->complete(std::move(response));
        return;
    }
    const auto& session = inbound.session;
    const bool listen = method->info->streams;
    if (!method->info->user_code && !listen) {
        run_call(*method, call);
        return;
    }
    if (core.shutting_down.load()) return reject(*call, era, error_code::internal_error, "Server is shutting down");
    if (metrics::enabled() && !listen) call->in_flight.emplace(&calls_in_flight());
    if (!core.tracer) call->trace = trace_of(call->message, inbound);  // with one, begin_server_span set it

    // Long-running: reachable by notifications/cancelled and the transport's cancel signal.
    call->key = request_key(call->message.id);
    if (listen) call->ends_with_client = true;
    if (session && !SessionState::of(*session).track(call)) {
        call->key.clear();
        return reject(*call, era, error_code::invalid_request,
                      "Duplicate request id: a request with this id is still in flight");
    }
    if (inbound.cancel.stop_possible())
        call->transport_cancel.emplace(inbound.cancel, CallState::RequestStop{&call->stop});
    if (listen) return start_listen(core, call);

    if (method->runs_inline != nullptr && method->runs_inline(core, *call)) {
        // Declared non-blocking: served on this thread, with the request context already here.
        call->runs_inline = true;
        RequestContextScope request_context(*call);
        run_call(*method, call);  // parks itself, should it wait for the client (2025, replayable)
        return;
    }

    {
        RequestContextScope request_context(*call);
        call->snapshot = core.context_registry->capture();
    }
    if (!admit_client_call(call)) return;
    core.calls.started(call);
    if (!core.pool().try_submit([call] { run_pooled(call); })) {
        core.calls.ended(*call);
        const auto answering = call->untrack();
        observe_answer(*call, era, Outcome::unavailable, error_code::internal_error);
        call->sink->complete_overloaded(
            jsonrpc::make_error(call->message.id, error_code::internal_error,
                                "Server overloaded: too many calls in flight, try again later"));
    }
}

void resume_call(const std::shared_ptr<CallState>& call) {
    call->input.keys = KeyCounter();
    // Not refused at the queue's bound: the call is admitted already, and its client answered.
    if (call->core.pool().try_submit([call] { run_pooled(call); }, Admission::always)) return;
    const auto answering = call->untrack();
    call->core.calls.ended(*call);
    observe_answer(*call, Era::sessions, Outcome::internal_error, error_code::internal_error);
    call->sink->complete(jsonrpc::make_error(call->message.id, error_code::internal_error, "Server is shutting down"));
}

void drop_call(const std::shared_ptr<CallState>& call) {
    const auto answering = call->untrack();
    call->core.calls.ended(*call);
    observe_answer(*call, Era::sessions, Outcome::cancelled, 0);
    call->sink->complete(std::nullopt);
}

void evict_call(const std::shared_ptr<CallState>& call) {
    const auto answering = call->untrack();
    call->core.calls.ended(*call);
    observe_answer(*call, Era::sessions, Outcome::unavailable, error_code::internal_error);
    call->sink->complete_overloaded(jsonrpc::make_error(
        call->message.id, error_code::internal_error,
        "Server overloaded: this call waited for an answer while other clients waited for room, try again later"));
}

namespace {

boost::json::value proceed(const std::vector<Interceptor>& chain, std::size_t next, const Invocation& invocation,
                           const std::function<boost::json::value()>& method) {
    if (next == chain.size()) return method();
    return chain[next](invocation, [&] { return proceed(chain, next + 1, invocation, method); });
}

// The method behind the scope guard and the interceptors; with neither, just the method.
boost::json::value invoke(const Method& method, CallState& call) {
    auto& core = call.core;
    const auto* principal = call.exchange->principal().get();
    if (principal == nullptr && core.interceptors.empty()) return method.run(core, call);
    const auto target = target_of(call);
    const auto scopes =
        method.scopes != nullptr && !target.empty() ? method.scopes(core, target) : std::vector<std::string>();
    check_scopes(principal, scopes);
    if (core.interceptors.empty()) return method.run(core, call);
    const Invocation invocation{call.message.method, call.params(), *call.exchange, target, scopes};
    return proceed(core.interceptors, 0, invocation, [&] { return method.run(core, call); });
}

// invoke in the handler's span (server/call_span.hpp).
boost::json::value invoke_traced(const Method& method, CallState& call) {
    begin_handler_span(call);
    std::optional<StoreSpans> store_spans;
    std::optional<ObservingStore> observing;
    if (call.handler_span) observing.emplace(&store_spans.emplace(*call.core.tracer, *call.handler_span));
    try {
        auto result = invoke(method, call);
        end_handler_span(call, nullptr);
        return result;
    } catch (...) {
        end_handler_span(call, std::current_exception());
        throw;
    }
}

}  // namespace

bool run_call(const Method& method, const std::shared_ptr<CallState>& call) {
    const bool modern = call->exchange->era() == Era::stateless;
    // A sampled call's round trips to the store are spans of its own (parking's included), under
    // its handler's span while that runs (invoke_traced).
    std::optional<StoreSpans> store_spans;
    std::optional<ObservingStore> observing;
    if (call->span) observing.emplace(&store_spans.emplace(*call->core.tracer, *call->span));
    // Emplaced, not assigned: assigning a value moves it only within one storage, and a result
    // built in call->scratch would be copied out.
    std::optional<boost::json::value> response;
    std::optional<std::string> response_text;  // a result written as text, for a sink that takes it
    Outcome text_outcome = Outcome::ok;
    bool unavailable = false;  // the shared store is away: HTTP 503, the client retries
    std::optional<Refusal> refused;
    try {
        auto result = call->span ? invoke_traced(method, *call) : invoke(method, *call);
        // A handler that swallowed InputRequired still asked: the pending requests decide.
        if (!call->input.pending.empty()) throw InputRequired{};
        if (call->sink->takes_text()) {
            response_text =
                detail::response_text(call->core, call->message.id, call->exchange->era(), method.info->cache, result);
            if (response_text) text_outcome = outcome_of_result(result);
        }
        if (!response_text) {
            if (modern) stamp_stateless_result(call->core, method.info->cache, result);
            // A result built in call->scratch (a list page) is enveloped there and moves in; any
            // other in default storage (an embedder's storage is not the server's to allocate in).
            auto storage = result.storage() == call->scratch ? call->scratch : boost::json::storage_ptr();
            response.emplace(jsonrpc::make_result(call->message.id, std::move(result), std::move(storage)));
        }
    } catch (const InputRequired&) {
        if (modern) {
            record_input_requests(*call);
            auto result = input_required(*call);
            stamp_stateless_result(call->core, Cache::none, result);  // never cacheable
            response.emplace(jsonrpc::make_result(call->message.id, std::move(result)));
        } else {
            try {
                park(call);
                return false;
            } catch (const StoreUnavailable& e) {
                unavailable = true;
                response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error,
                                                     std::string("Store unavailable: ") + e.what()));
            } catch (const ParkingFull&) {
                unavailable = true;
                response.emplace(jsonrpc::make_error(
                    call->message.id, error_code::internal_error,
                    "Server overloaded: too many calls wait for their clients' answers, try again later"));
            } catch (const Refusal& e) {
                refused = e;  // the client's own parked calls are at its quota
                response.emplace(error_response(*call, e));
            }
        }
    } catch (const CapabilityMissing& e) {
        response.emplace(modern ? jsonrpc::make_error(
                                      call->message.id, error_code::missing_required_client_capability, e.what(),
                                      boost::json::object{{"requiredCapabilities", capability_object(e.capability())}})
                                : jsonrpc::make_error(call->message.id, error_code::internal_error, e.what()));
    } catch (const Refusal& e) {
        refused = e;
        response.emplace(error_response(*call, e));
    } catch (const Error& e) {
        response.emplace(error_response(*call, e));
    } catch (const json::BindError& e) {
        response.emplace(jsonrpc::make_error(call->message.id, error_code::invalid_params,
                                             std::string("Invalid params: ") + e.what()));
    } catch (const StoreUnavailable& e) {
        unavailable = true;
        if (metrics::enabled()) store_metrics().unavailable.add();
        response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error,
                                             std::string("Store unavailable: ") + e.what()));
    } catch (const std::exception& e) {
        log().warn("{} failed: {}", call->message.method, printable(e.what()));
        response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error,
                                             std::string("Internal error: ") + e.what()));
    } catch (...) {
        response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error, "Internal error"));
    }
    const auto answering = call->untrack();
    const bool cancelled =
        call->cancelled_by_client.load() || (call->exchange->era() == Era::stateless && call->stop.stop_requested());
    if (response_text) {
        observe_answer(*call, call->exchange->era(), cancelled ? Outcome::cancelled : text_outcome, 0);
    } else {
        observe_answer(*call, call->exchange->era(),
                       cancelled     ? Outcome::cancelled
                       : unavailable ? Outcome::unavailable
                       : refused     ? Outcome::refused
                                     : outcome_of(*response),
                       cancelled ? 0 : error_code_of(*response), &*response);
    }
    if (cancelled) {
        call->sink->complete(std::nullopt);  // a cancelled request gets no response
    } else if (response_text) {
        call->sink->complete_text(std::move(*response_text));
    } else if (unavailable) {
        call->sink->complete_overloaded(std::move(*response));
    } else if (refused) {
        call->sink->complete_refused(*refused, std::move(*response));
    } else {
        call->sink->complete(std::move(response));
    }
    return true;
}

}  // namespace mcp::detail
