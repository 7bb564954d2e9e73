#include "server/dispatch.hpp"

#include "server/era.hpp"
#include "server/input/request_state.hpp"
#include "server/request_context_impl.hpp"
#include "server/methods/methods.hpp"
#include "server/routing_headers.hpp"
#include "sessions/session_state.hpp"
#include "util/log.hpp"

#include <mcp/json/bind.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/store/store_errors.hpp>

#include <boost/json/serialize.hpp>

#include <unordered_map>

namespace mcp::detail {

namespace {

Method built_in(MethodFn run, Cache cache = Cache::none) { return Method{run, false, false, true, true, cache}; }
// Runs user code and takes part in 2026 rounds: on the handler pool, unless the probe finds the
// handler declared runs_inline.
Method user_code(MethodFn run, Cache cache, InlineProbe runs_inline) {
    return Method{run, true, false, true, true, cache, true, runs_inline};
}
Method sessions_only(MethodFn run, bool before_initialize = false) { return Method{run, false, before_initialize, true, false}; }
Method stateless_only(MethodFn run, Cache cache) { return Method{run, false, false, false, true, cache}; }

const std::unordered_map<std::string_view, Method>& method_table() {
    static const std::unordered_map<std::string_view, Method> table{
        {"initialize", sessions_only(initialize, true)},
        {"ping", sessions_only(ping, true)},
        {"logging/setLevel", sessions_only(set_log_level)},
        {"resources/subscribe", sessions_only(subscribe)},
        {"resources/unsubscribe", sessions_only(unsubscribe)},
        {"server/discover", stateless_only(discover, Cache::list)},
        // Its run function is never called: a listen is a stream, not a call (start_listen).
        {"subscriptions/listen", stateless_only(nullptr, Cache::none)},
        {"tools/list", built_in(list_tools, Cache::list)},
        {"tools/call", user_code(call_tool, Cache::none, tool_runs_inline)},
        {"prompts/list", built_in(list_prompts, Cache::list)},
        {"prompts/get", user_code(get_prompt, Cache::none, prompt_runs_inline)},
        {"resources/list", built_in(list_resources, Cache::list)},
        {"resources/templates/list", built_in(list_resource_templates, Cache::list)},
        {"resources/read", user_code(read_resource, Cache::read, resource_runs_inline)},
        {"completion/complete", Method{complete, true}},
    };
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

void reject(const CallState& call, int code, std::string message, boost::json::value data = nullptr) {
    call.sink->complete(jsonrpc::make_error(call.message.id, code, message, data));
}

const std::string& subject_of(const CallState& call) {
    static const std::string anonymous;
    const auto& principal = call.exchange->principal();
    return principal ? principal->subject : anonymous;
}

// The answers a 2026 retry carries: those sealed in requestState, and inputResponses.
void read_inputs(CallState& call) {
    const auto& params = call.params();
    if (const auto* token = params.if_contains("requestState"); token && !token->is_null()) {
        if (!token->is_string()) throw InvalidParams("requestState must be a string");
        auto state = open_request_state(call.core.keys(), token->get_string(), call.core.options.client_requests.request_state_ttl);
        if (state.method != call.message.method) throw InvalidParams("Invalid requestState: issued for another method");
        if (state.params_digest != params_digest(params)) throw InvalidParams("Invalid requestState: issued for other params");
        if (state.principal != subject_of(call)) throw InvalidParams("Invalid requestState: issued to another principal");
        call.input.answers = std::move(state.answers);
    }
    if (const auto* responses = params.if_contains("inputResponses"); responses && !responses->is_null()) {
        if (!responses->is_object()) throw InvalidParams("inputResponses must be an object");
        for (const auto& kv : responses->get_object()) call.input.answers[kv.key()] = kv.value();
    }
}

// The handler asked for input the request does not carry: the requests, and the state that lets
// the retry pick up the answers gathered so far.
boost::json::value input_required(const CallState& call) {
    boost::json::object requests;
    for (const auto& r : call.input.pending) requests[r.key] = boost::json::object{{"method", r.method}, {"params", r.params}};
    RequestState state{std::string(call.message.method), params_digest(call.params()), subject_of(call), call.input.used,
                       std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count()};
    return boost::json::object{{"resultType", "input_required"},
                               {"inputRequests", std::move(requests)},
                               {"requestState", seal_request_state(call.core.keys(), state)}};
}

// Era rules of 2026-07-28, in the order the spec gives: envelope, headers, version, method.
const Method* admit_stateless(CallState& call, const Inbound& inbound) {
    const auto& msg = call.message;
    const Envelope envelope = read_envelope(msg);
    if (inbound.headers != nullptr) {
        check_routing_headers(msg, *inbound.headers, envelope.client->protocol_version);
        call.headers = *inbound.headers;
    }
    if (!revision::is_stateless_era(envelope.client->protocol_version)) {
        boost::json::array supported;
        for (auto v : revision::stateless_era()) supported.emplace_back(v);
        throw Error(error_code::unsupported_protocol_version,
                    "Unsupported protocol version: " + envelope.client->protocol_version,
                    boost::json::object{{"supported", std::move(supported)}, {"requested", envelope.client->protocol_version}});
    }
    const Method* method = find_method(msg.method);
    if (method == nullptr || !method->modern) {
        throw Error(error_code::method_not_found, "Method not found: " + std::string(msg.method));
    }
    call.exchange.emplace(Era::stateless, envelope.client, inbound.session, msg.id, progress_token_of(msg), envelope.log_level,
                          inbound.principal);
    if (method->rounds) read_inputs(call);
    return method;
}

const Method* admit_in_session(CallState& call, const Inbound& inbound) {
    const auto& msg = call.message;
    const Method* method = find_method(msg.method);
    if (method == nullptr || !method->legacy) {
        throw Error(error_code::method_not_found, "Method not found: " + std::string(msg.method));
    }
    const auto& session = inbound.session;
    if (!method->before_initialize && (!session || !session->initialized())) {
        throw Error(error_code::invalid_request, "Not initialized: send initialize first");
    }
    call.exchange.emplace(Era::sessions, session ? session->client() : nullptr, session, msg.id, progress_token_of(msg),
                          std::nullopt, inbound.principal);
    return method;
}

// The trace context: the transport's headers, else traceparent/tracestate in params._meta.
TraceContext trace_of(const jsonrpc::Message& msg, const Inbound& inbound) {
    if (!inbound.trace.traceparent.empty() || msg.params == nullptr) return inbound.trace;
    TraceContext trace;
    if (const auto* meta = msg.params->if_contains("_meta"); meta && meta->is_object()) {
        if (const auto* p = meta->get_object().if_contains("traceparent"); p && p->is_string()) trace.traceparent = p->get_string();
        if (const auto* s = meta->get_object().if_contains("tracestate"); s && s->is_string()) trace.tracestate = s->get_string();
    }
    return trace;
}

LogFields log_fields_of(const CallState& call) {
    LogFields fields{{"mcp.request.id", boost::json::serialize(call.message.id)}, {"mcp.method", std::string(call.message.method)}};
    if (call.session && !call.session->id().empty()) fields.emplace_back("mcp.session", call.session->id());
    if (const auto& name = call.exchange->client_info().name; !name.empty()) fields.emplace_back("mcp.client", name);
    return fields;
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
    if (!plain || !plain->starts_with(session->id() + '\n') || !core.sessions().deliver(id, message)) {
        log().debug("dropping a response to a request this session is not waiting for");
    }
}

void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session) {
    if (message.method == "notifications/initialized") {
        initialized(core, message, session);
    } else if (message.method == "notifications/cancelled") {
        cancelled(core, message, session);
    } else if (message.method == "notifications/roots/list_changed") {
        if (session) SessionState::of(*session).forget_roots();
    } else {
        log().debug("ignoring notification {}", message.method);
    }
}

void handle_request(ServerCore& core, const std::shared_ptr<CallState>& call, const Inbound& inbound) {
    const Method* method = nullptr;
    try {
        method = classify_era(call->message, inbound.headers) == Era::stateless ? admit_stateless(*call, inbound)
                                                                               : admit_in_session(*call, inbound);
    } catch (const Error& e) {
        call->sink->complete(error_response(*call, e));
        return;
    }
    const auto& session = inbound.session;
    const bool listen = call->message.method == "subscriptions/listen";
    if (!method->on_pool && !listen) return run_call(*method, call);
    if (core.shutting_down.load()) return reject(*call, error_code::internal_error, "Server is shutting down");

    // Long-running: reachable by notifications/cancelled and the transport's cancel signal.
    call->key = request_key(call->message.id);
    if (listen) call->ends_with_client = true;
    if (session && !SessionState::of(*session).track(call)) {
        call->key.clear();
        return reject(*call, error_code::invalid_request, "Duplicate request id: a request with this id is still in flight");
    }
    if (inbound.cancel.stop_possible()) call->transport_cancel.emplace(inbound.cancel, CallState::RequestStop{&call->stop});
    if (listen) return start_listen(core, call);

    if (method->runs_inline != nullptr && method->runs_inline(core, *call)) {
        // Declared non-blocking: served on this thread, with the request context already here.
        call->runs_inline = true;
        RequestContextScope request_context(trace_of(call->message, inbound), log_fields_of(*call));
        return run_call(*method, call);
    }

    std::optional<ContextSnapshot> snapshot;
    {
        RequestContextScope request_context(trace_of(call->message, inbound), log_fields_of(*call));
        snapshot = core.context_registry->capture();
    }
    core.call_started(call);
    const bool queued = core.pool().try_submit([call, method, snapshot = std::move(*snapshot)] {
        auto scope = snapshot.restore();
        run_call(*method, call);
        call->core.call_ended(*call);
    });
    if (!queued) {
        core.call_ended(*call);
        if (session) SessionState::of(*session).untrack(*call);
        call->sink->complete_overloaded(jsonrpc::make_error(call->message.id, error_code::internal_error,
                                                            "Server overloaded: too many calls in flight, try again later"));
    }
}

void run_call(const Method& method, const std::shared_ptr<CallState>& call) {
    const bool modern = call->exchange->era() == Era::stateless;
    // Emplaced, not assigned: assigning a value moves it only within one storage, and a result
    // built in call->scratch would be copied out.
    std::optional<boost::json::value> response;
    bool unavailable = false;  // the shared store is away: HTTP 503, the client retries
    try {
        auto result = method.run(call->core, *call);
        // A handler that swallowed InputRequired still asked: the pending requests decide.
        if (modern && !call->input.pending.empty()) throw InputRequired{};
        if (modern) stamp_stateless_result(call->core, method.cache, result);
        // A result built in call->scratch (a list page) is enveloped there and moves in; any
        // other in default storage (an embedder's storage is not the server's to allocate in).
        auto storage = result.storage() == call->scratch ? call->scratch : boost::json::storage_ptr();
        response.emplace(jsonrpc::make_result(call->message.id, std::move(result), std::move(storage)));
    } catch (const InputRequired&) {
        auto result = input_required(*call);
        stamp_stateless_result(call->core, Cache::none, result);  // never cacheable
        response.emplace(jsonrpc::make_result(call->message.id, std::move(result)));
    } catch (const CapabilityMissing& e) {
        response.emplace(modern ? jsonrpc::make_error(call->message.id, error_code::missing_required_client_capability, e.what(),
                                                      boost::json::object{{"requiredCapabilities", capability_object(e.capability())}})
                                : jsonrpc::make_error(call->message.id, error_code::internal_error, e.what()));
    } catch (const Error& e) {
        response.emplace(error_response(*call, e));
    } catch (const json::BindError& e) {
        response.emplace(jsonrpc::make_error(call->message.id, error_code::invalid_params, std::string("Invalid params: ") + e.what()));
    } catch (const StoreUnavailable& e) {
        unavailable = true;
        response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error, std::string("Store unavailable: ") + e.what()));
    } catch (const std::exception& e) {
        log().warn("{} failed: {}", call->message.method, e.what());
        response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error, std::string("Internal error: ") + e.what()));
    } catch (...) {
        response.emplace(jsonrpc::make_error(call->message.id, error_code::internal_error, "Internal error"));
    }
    if (call->session && !call->key.empty()) SessionState::of(*call->session).untrack(*call);
    if (call->cancelled_by_client.load() || (call->exchange->era() == Era::stateless && call->stop.stop_requested())) {
        call->sink->complete(std::nullopt);  // a cancelled request gets no response
    } else if (unavailable) {
        call->sink->complete_overloaded(std::move(*response));
    } else {
        call->sink->complete(std::move(response));
    }
}

}  // namespace mcp::detail
