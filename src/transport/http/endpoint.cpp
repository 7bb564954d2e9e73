// The MCP endpoint: POST, GET and DELETE under the rules of both eras (2025-11-25 sessions and
// 2026-07-28 stateless requests), decided per request.
#include "transport/http/endpoint.hpp"

#include "json/text_writer.hpp"
#include "transport/http/bearer_auth.hpp"
#include "transport/http/cors.hpp"
#include "transport/http/guards.hpp"
#include "transport/http/http_context.hpp"
#include "transport/http/http_metrics.hpp"
#include "transport/http/response_stream.hpp"
#include "transport/http/response_writer.hpp"
#include "transport/http/sse_connection.hpp"
#include "transport/http/verify_span.hpp"

#include "protocol/era.hpp"
#include "protocol/methods.hpp"
#include "sessions/session_metrics.hpp"
#include "store/store_metrics.hpp"
#include "util/client_key.hpp"
#include "util/limit_report.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/detail/transport_access.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/json/serialize.hpp>

namespace mcp::detail {

namespace asio = boost::asio;
namespace http = boost::beast::http;

namespace {

constexpr int kSessionNotFound = -32001;

// A request has a dozen fields: a scan comparing lengths first beats Beast's case-insensitive
// ordered lookup, which lowers every character it compares.
const Request::value_type* find_field(const Request& request, std::string_view name) {
    for (const auto& field : request) {
        const auto n = field.name_string();
        if (n.size() == name.size() && ascii_iequals(std::string_view(n.data(), n.size()), name)) return &field;
    }
    return nullptr;
}

std::string_view header(const Request& request, std::string_view name) {
    const auto* field = find_field(request, name);
    return field == nullptr ? std::string_view() : trim(std::string_view(field->value().data(), field->value().size()));
}

// The 2026-07-28 metadata headers, in one pass over the fields; names compare case-insensitively
// (Beast does that), the first of a name counts.
RequestHeaders routing_headers(const Request& request) {
    RequestHeaders h;
    constexpr std::string_view prefix = "mcp-param-";
    const auto take = [](std::optional<std::string>& slot, std::string_view value) {
        if (!slot) slot.emplace(trim(value));
    };
    for (const auto& field : request) {
        const std::string_view name(field.name_string().data(), field.name_string().size());
        const std::string_view value(field.value().data(), field.value().size());
        if (ascii_iequals(name, "MCP-Protocol-Version")) {
            take(h.protocol_version, value);
        } else if (ascii_iequals(name, "Mcp-Method")) {
            take(h.method, value);
        } else if (ascii_iequals(name, "Mcp-Name")) {
            take(h.name, value);
        } else if (name.size() > prefix.size() && ascii_iequals(name.substr(0, prefix.size()), prefix)) {
            std::string param(name.substr(prefix.size()));
            std::transform(param.begin(), param.end(), param.begin(), ascii_lower);
            h.params.emplace_back(std::move(param), std::string(trim(value)));
        }
    }
    return h;
}

// A refused or unchecked bearer token, counted; an accepted one is counted once its scopes are.
void count_refusal(const BearerVerdict& verdict) {
    if (const auto* refusal = std::get_if<TokenRefusal>(&verdict)) {
        http_metrics().token(refusal->error.empty() ? TokenOutcome::missing : TokenOutcome::invalid);
    } else if (std::holds_alternative<VerifierUnavailable>(verdict)) {
        http_metrics().token(TokenOutcome::unavailable);
    }
}

// The client of a request from `peer`: the peer itself, or behind a trusted proxy the hop the
// forwarding header names; as the quotas count it, and for the request's span when one may be
// recorded (an IPv4 address is whole in both: only an IPv6 one is written again).
void identify_client(Caller& caller, const Request& request, const ConnectionPeer& peer, const HttpContext& ctx) {
    const bool traced = tracer(ctx.server) != nullptr;
    if (traced) caller.network = {"tcp", "http", request.version() == 10 ? "1.0" : "1.1"};
    if (!peer.trusted) {
        caller.address = peer.client;
        if (traced) {
            caller.network.client_address = peer.whole_address();
            caller.network.client_port = peer.port;
        }
        return;
    }
    const std::string_view name = ctx.forwarded_header == ForwardedHeader::forwarded ? "Forwarded" : "X-Forwarded-For";
    std::vector<std::string_view> fields;
    for (const auto& field : request) {
        const std::string_view n(field.name_string().data(), field.name_string().size());
        if (ascii_iequals(n, name)) fields.emplace_back(field.value().data(), field.value().size());
    }
    const auto hops =
        ctx.forwarded_header == ForwardedHeader::forwarded ? forwarded_hops(fields) : x_forwarded_for_hops(fields);
    const auto client = client_behind(peer.address, hops, ctx.trusted_proxies);
    caller.address = aggregated(client, ctx.options.ipv6_prefix);
    if (!traced) return;
    // The port the proxy connected from is not the client's: none is recorded. (An IPv4 address
    // fits in the string itself: no allocation.)
    caller.whole = client.is_v6() ? client.to_string() : caller.address;
}

// The seconds a client over its quota of a held resource is told to wait: its half-open sessions
// are gone by then, and others may have ended.
std::string retry_after(const HttpContext& ctx) {
    const auto half_open = ctx.server.options().sessions.half_open_timeout;
    return std::to_string(std::max<long long>(1, std::chrono::ceil<std::chrono::seconds>(half_open).count()));
}

// Hands a message to the core. Thread-locals an authenticator set on this thread travel with it
// (the core snapshots them) and are cleared here, before this thread serves anything else. Returns
// the call's stop source for a request.
std::stop_source dispatch(HttpContext& ctx, boost::json::value document, const Inbound& inbound,
                          std::shared_ptr<CallSink> sink) {
    auto cancel = handle_parsed(ctx.server, std::move(document), inbound, std::move(sink));
    ctx.server.context_registry().clear_current_thread();
    return cancel;
}

// Runs `work`, which may wait for the session store: right here with the memory store, on the
// store threads with a shared one. Thread-locals set by the authenticator go along. Exceptions
// (StoreUnavailable) come back to the caller.
template <class Work>
asio::awaitable<std::invoke_result_t<Work&>> near_store(HttpContext& ctx, Work work) {
    using Result = std::invoke_result_t<Work&>;
    if (!ctx.store_threads) co_return work();
    auto snapshot = ctx.server.context_registry().capture();
    ctx.server.context_registry().clear_current_thread();
    co_return co_await asio::co_spawn(
        *ctx.store_threads,
        [&work, &snapshot]() -> asio::awaitable<Result> {
            auto scope = snapshot.restore();
            co_return work();
        },
        asio::use_awaitable);
}

// The id of the JSON-RPC request in the body, for an error answered after it was parsed; null
// for anything else (a notification, a client's response, a GET).
boost::json::value request_id_of(const Request& request, HttpContext& ctx) {
    if (request.method() != http::verb::post) return nullptr;
    auto parsed = jsonrpc::parse(request.body(), ctx.server.options().limits);
    auto* document = std::get_if<boost::json::value>(&parsed);
    if (document == nullptr) return nullptr;
    auto classified = jsonrpc::classify(*document);
    const auto* message = std::get_if<jsonrpc::Message>(&classified);
    return message && message->kind == jsonrpc::Kind::request ? message->id : boost::json::value(nullptr);
}

// Collects what the core produces for a message handled inline (initialize).
class InlineSink final : public CallSink {
public:
    bool send(boost::json::value) override { return true; }
    void complete(std::optional<boost::json::value> r) override { response = std::move(r); }
    std::optional<boost::json::value> response;
};

// A response the core produces: the whole answer when the core gave it already (a call answered
// inline), else the outbox to deliver it from.
RequestStep settle(Delivery delivery, const Request& request, const HttpContext& ctx) {
    auto whole = delivery.outbox->take_whole();
    if (!whole) return delivery;
    return WholeResponse(whole->head.status, request, std::move(whole->body), "application/json", whole->head.headers,
                         ctx);
}

// A 2026-07-28 message handed to the core; its answer comes through the outbox. A request is
// cancelled when the client leaves before its answer.
RequestStep dispatch_stateless(const Request& request, boost::json::value document, const RequestHeaders& headers,
                               const Caller& caller, HttpContext& ctx) {
    auto response =
        make_stateless_response(ctx.options.max_pending_bytes, ctx.options.sse_retry.count(), ctx.bearer.get());
    auto cancel = dispatch(ctx, std::move(document), caller.inbound(nullptr, &headers, Era::stateless),
                           std::move(response.stream));
    return settle(Delivery{std::move(response.outbox), std::move(cancel)}, request, ctx);
}

// A 2025-11-25 message handed to the core in its session; its answer comes through the outbox. A
// client that disconnects has not cancelled: it may resume with Last-Event-ID.
RequestStep serve_in(const std::shared_ptr<ResumableSession>& session, const Request& request,
                     boost::json::value document, const Caller& caller, HttpContext& ctx) {
    auto outbox = std::make_shared<Outbox>(ctx.options.max_pending_bytes);
    dispatch(ctx, std::move(document), caller.inbound(session->session(), nullptr, Era::sessions),
             std::make_shared<ResponseStream>(Era::sessions, outbox, session, ctx.options.sse_retry.count(),
                                              ctx.bearer.get()));
    return settle(Delivery{std::move(outbox), std::stop_source(std::nostopstate)}, request, ctx);
}

// A 2025-11-25 message served in the session it names, or 404 when there is none (for this
// caller).
RequestStep serve_in_session(const Request& request, std::string_view session_id, boost::json::value document,
                             const boost::json::value& id, const Caller& caller, HttpContext& ctx) {
    auto session = ctx.sessions.find(session_id, caller.subject());
    if (!session) return error_response(request, 404, kSessionNotFound, "Session not found", ctx, {}, id);
    return serve_in(session, request, std::move(document), caller, ctx);
}

// The answer to initialize once its session was offered to the store's bounds.
WholeResponse admitted(SessionService::Admission admission, const Request& request, const AdmitSession& admit,
                       const HttpContext& ctx) {
    switch (admission) {
        case SessionService::Admission::admitted: break;
        case SessionService::Admission::client_limit:
            return error_response(request, 429, error_code::rate_limited,
                                  "Too many sessions for this client, try again later", ctx,
                                  header_list("Retry-After", retry_after(ctx)), admit.id);
        case SessionService::Admission::full:
            return error_response(request, 503, kServerError, "Too many sessions, try again later", ctx,
                                  header_list("Retry-After", "5"), admit.id);
    }
    return WholeResponse(200, request, json_text(admit.response), "application/json",
                         header_list("Mcp-Session-Id", admit.session->id()), ctx);
}

RequestStep initialize(const Request& request, boost::json::value document, Caller& caller, HttpContext& ctx) {
    AdmitSession admit{ctx.sessions.create(), nullptr, document.at("id")};  // initialize is a request
    auto sink = std::make_shared<InlineSink>();
    dispatch(ctx, std::move(document), caller.inbound(admit.session->session(), nullptr, Era::sessions), sink);
    if (!sink->response) return WholeResponse(202, request, {}, {}, {}, ctx);
    admit.response = std::move(*sink->response);
    if (!admit.response.as_object().contains("result")) {
        return WholeResponse(status_of(admit.response, Era::sessions), request, json_text(admit.response),
                             "application/json", {}, ctx);
    }
    if (ctx.store_threads) return Waiting{std::move(caller), std::move(admit)};
    return admitted(ctx.sessions.admit(admit.session, caller.key()), request, admit, ctx);
}

RequestStep post(Request& request, Caller& caller, HttpContext& ctx) {
    if (!is_json_content_type(header(request, "Content-Type"))) {
        return error_response(request, 415, kServerError, "Unsupported Media Type: the body must be application/json",
                              ctx);
    }
    const auto accept = header(request, "Accept");
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
        return error_response(request, 406, kServerError,
                              "Not Acceptable: the client must accept application/json and text/event-stream", ctx);
    }
    auto parsed = jsonrpc::parse(request.body(), ctx.server.options().limits);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&parsed))
        return error_response(request, 400, failure->code, failure->message, ctx);
    auto document = std::move(std::get<boost::json::value>(parsed));
    auto classified = jsonrpc::classify(document);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&classified)) {
        auto body = boost::json::serialize(jsonrpc::make_error(failure->id, failure->code, failure->message));
        return WholeResponse(400, request, std::move(body), "application/json", {}, ctx);
    }
    const auto& message = std::get<jsonrpc::Message>(classified);
    const bool is_request = message.kind == jsonrpc::Kind::request;
    const boost::json::value id = is_request ? message.id : boost::json::value();  // what errors below answer
    const RequestHeaders headers = routing_headers(request);
    const std::string_view version = headers.protocol_version ? *headers.protocol_version : std::string_view();

    // Which era: a request's own _meta decides, else the version header or the method (the
    // classification rules of the 2026-07-28 transport).
    const auto* info = find_method_info(message.method);
    if (classify_era(message, version) == Era::stateless) {
        if (message.kind == jsonrpc::Kind::response) {
            return error_response(request, 400, error_code::invalid_request,
                                  "Invalid Request: 2026-07-28 has no server-to-client requests to answer", ctx);
        }
        if (message.kind == jsonrpc::Kind::notification && info != nullptr && !info->exists_in(Era::stateless)) {
            return error_response(request, 404, error_code::method_not_found,
                                  "Method not found: " + std::string(message.method) + " is not part of 2026-07-28",
                                  ctx);
        }
        return dispatch_stateless(request, std::move(document), headers, caller, ctx);
    }

    if (!version.empty() && !revision::is_session_era(version)) {
        return error_response(request, 400, kServerError,
                              "Bad Request: unsupported MCP-Protocol-Version " + std::string(version), ctx, {}, id);
    }
    if (is_request && info != nullptr && info->opens_session)
        return initialize(request, std::move(document), caller, ctx);
    const auto session_id = header(request, "Mcp-Session-Id");
    if (session_id.empty())
        return error_response(request, 400, kServerError, "Bad Request: Mcp-Session-Id header is required", ctx, {},
                              id);
    if (ctx.store_threads) {
        // A session whose record this node trusts, and a request the core answers without the
        // store: served on this thread, as with the memory store (the hand-off to the store threads
        // and back was most of what a call cost more with Redis).
        if (answers_without_store(ctx.server, message)) {
            if (auto session = ctx.sessions.find_trusted(session_id, caller.subject()))
                return serve_in(session, request, std::move(document), caller, ctx);
        }
        return Waiting{std::move(caller), ServeInSession{std::move(document), std::string(session_id), id}};
    }
    return serve_in_session(request, session_id, std::move(document), id, caller, ctx);
}

asio::awaitable<bool> get(HttpStream& stream, const Request& request, const Caller& caller, HttpContext& ctx) {
    const auto version = header(request, "MCP-Protocol-Version");
    const auto session_id = header(request, "Mcp-Session-Id");
    if (stateless_version_header(version) || (session_id.empty() && version.empty())) {
        co_return co_await write_error(stream, request, 405, kServerError, "Method Not Allowed: use POST", ctx,
                                       header_list("Allow", "POST"));
    }
    if (session_id.empty()) {
        co_return co_await write_error(stream, request, 400, kServerError,
                                       "Bad Request: Mcp-Session-Id header is required", ctx);
    }
    if (!accepts(header(request, "Accept"), "text/event-stream")) {
        co_return co_await write_error(stream, request, 406, kServerError,
                                       "Not Acceptable: the client must accept text/event-stream", ctx);
    }
    enum class Outcome { attached, no_session, bad_event_id, too_many_streams, too_many_for_client };
    auto outbox = std::make_shared<Outbox>(ctx.options.max_pending_bytes);
    const auto last_event = header(request, "Last-Event-ID");
    const auto client = caller.key();
    // Both held until the connection ends: the session's count, and the client's.
    std::optional<BoundedCount::Place> lease;
    std::optional<ClientQuota::Place> client_lease;
    std::shared_ptr<SseConnection> connection;
    const auto outcome = co_await near_store(ctx, [&] {
        auto session = ctx.sessions.find(session_id, caller.subject());
        if (!session) return Outcome::no_session;
        std::shared_ptr<ResumableStream> target;
        std::string after;
        if (!last_event.empty()) {
            // Sealed ids cannot be forged, and one session cannot resume another's stream.
            auto position = open_event_id(ctx.server.key_ring(), last_event);
            if (!position || position->session_id != session->id() ||
                !(target = session->find_stream(position->stream_id, position->event_id))) {
                return Outcome::bad_event_id;
            }
            after = position->event_id;
        }
        if (!(lease = session->lease_get_connection(ctx.options.max_streams_per_session)))
            return Outcome::too_many_streams;
        if (!(client_lease = ctx.get_streams_by_client.try_take(client, ctx.options.max_get_streams_per_client)))
            return Outcome::too_many_for_client;
        outbox->start({ResponseHead::Kind::event_stream, 200, {}});
        const StreamSpan::Stream traced{session->id(), target ? target->id() : session->standalone().id(), version,
                                        target != nullptr};
        connection = std::make_shared<SseConnection>(outbox, ctx.options.sse_retry.count(),
                                                     StreamSpan::start(tracer(ctx.server), ctx.server.options().tracing,
                                                                       caller.trace, traced, ctx.stream_spans));
        if (target) {
            target->attach(connection, after);
            if (metrics::enabled()) session_metrics().resumptions.add();
        } else {
            session->standalone().attach_live(connection);
        }
        return Outcome::attached;
    });
    switch (outcome) {
        case Outcome::no_session:
            co_return co_await write_error(stream, request, 404, kSessionNotFound, "Session not found", ctx);
        case Outcome::bad_event_id:
            co_return co_await write_error(stream, request, 400, kServerError, "Bad Request: invalid Last-Event-ID",
                                           ctx);
        case Outcome::too_many_streams:
            co_return co_await write_error(stream, request, 429, kServerError, "Too many open streams for this session",
                                           ctx);
        case Outcome::too_many_for_client:
            report_refusal(Bound::get_streams, Limit::client, client);
            co_return co_await write_error(stream, request, 429, error_code::rate_limited,
                                           "Too many open streams for this client, try again later", ctx,
                                           header_list("Retry-After", retry_after(ctx)));
        case Outcome::attached: break;
    }
    const bool keep_alive = co_await deliver(stream, request, outbox, std::stop_source(std::nostopstate), {}, ctx);
    connection->end_span();
    co_return keep_alive;
}

asio::awaitable<bool> remove(HttpStream& stream, const Request& request, const Caller& caller, HttpContext& ctx) {
    const auto version = header(request, "MCP-Protocol-Version");
    const auto session_id = header(request, "Mcp-Session-Id");
    if (stateless_version_header(version) || (session_id.empty() && version.empty())) {
        co_return co_await write_error(stream, request, 405, kServerError, "Method Not Allowed: use POST", ctx,
                                       header_list("Allow", "POST"));
    }
    if (session_id.empty()) {
        co_return co_await write_error(stream, request, 400, kServerError,
                                       "Bad Request: Mcp-Session-Id header is required", ctx);
    }
    if (!co_await near_store(ctx, [&] { return ctx.sessions.remove(session_id, caller.subject()); })) {
        co_return co_await write_error(stream, request, 404, kSessionNotFound, "Session not found", ctx);
    }
    if (ctx.sessions.shared()) {
        // No node serves the session once this is answered (on a timer: no thread waits).
        asio::steady_timer settled(co_await asio::this_coro::executor, SessionService::kTrustPeriod);
        co_await settled.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    co_return co_await write_response(stream, request, 200, {}, {}, {}, ctx);
}

// A request refused before a method handler sees it: what its error response says.
struct Refusal {
    unsigned status;
    int code;
    std::string message;
    HeaderList headers;
};

bool is_metadata_request(const Request& request, const HttpContext& ctx) {
    const std::string_view target(request.target().data(), request.target().size());
    return ctx.bearer && ctx.bearer->is_metadata_path(target.substr(0, target.find('?')));
}

// The Host and Origin fields (the first of each) and how many of each, in one pass.
struct HostAndOrigin {
    std::string_view host;
    std::string_view origin;
    int hosts = 0;
    int origins = 0;
};

HostAndOrigin host_and_origin(const Request& request) {
    HostAndOrigin found;
    for (const auto& field : request) {
        const auto name = field.name();  // Beast's code for a field name it knows
        if (name != http::field::host && name != http::field::origin) continue;
        const auto value = trim(std::string_view(field.value().data(), field.value().size()));
        const bool host = name == http::field::host;
        if ((host ? found.hosts++ : found.origins++) == 0) (host ? found.host : found.origin) = value;
    }
    return found;
}

// The checks that need nothing but the request: its path, Host and Origin.
std::optional<Refusal> refuse_early(const Request& request, const HttpContext& ctx) {
    if (!targets_endpoint(std::string_view(request.target().data(), request.target().size()), ctx))
        return Refusal{404, kServerError, "Not Found", {}};
    // DNS-rebinding protection: a web page must not reach a local server through its own hostname.
    const auto fields = host_and_origin(request);
    if (fields.host.empty()) return Refusal{400, kServerError, "Bad Request: Host header is required", {}};
    // Two of either could be read differently by a proxy and by us (RFC 9112 §3.2: 400).
    if (fields.hosts > 1 || fields.origins > 1)
        return Refusal{400, kServerError, "Bad Request: more than one Host or Origin header", {}};
    if (!host_allowed(fields.host, ctx.options.allowed_hosts) ||
        (!cors_allowed(request, ctx.options) && !origin_allowed(fields.origin, ctx.options.allowed_hosts))) {
        if (metrics::enabled()) http_metrics().refused(HttpRefusal::host_origin);
        return Refusal{403, kServerError, "Forbidden: Host or Origin not allowed", {}};
    }
    return std::nullopt;
}

// Who the caller is: its trace context, its client address and, with an authenticator, its
// principal (a refusal when the authenticator refuses).
std::optional<Refusal> identify(Caller& caller, const Request& request, const ConnectionPeer& peer, HttpContext& ctx) {
    caller.trace = {std::string(header(request, "traceparent")), std::string(header(request, "tracestate"))};
    identify_client(caller, request, peer, ctx);
    const auto& authenticate = ctx.server.authenticator();
    if (ctx.bearer || !authenticate) return std::nullopt;
    const std::string_view target(request.target().data(), request.target().size());
    try {
        caller.principal = authenticate(
            HttpRequestView{std::string_view(request.method_string().data(), request.method_string().size()), target,
                            [&request](std::string_view name) { return header(request, name); }});
        return std::nullopt;
    } catch (const Unauthorized& e) {
        ctx.server.context_registry().clear_current_thread();
        return Refusal{401, kServerError, std::string("Unauthorized: ") + e.what(),
                       header_list("WWW-Authenticate", e.challenge())};
    }
}

// The bearer token: the caller's principal when it is accepted, else the refusal.
asio::awaitable<std::optional<Refusal>> check_bearer(Caller& caller, const Request& request, HttpContext& ctx) {
    VerifySpan verify_span(tracer(ctx.server), caller.trace);
    auto verdict = co_await ctx.bearer->check(header(request, "Authorization"), verify_span.fetches());
    if (metrics::enabled()) count_refusal(verdict);
    if (const auto* refusal = std::get_if<TokenRefusal>(&verdict)) {
        verify_span.refused(refusal->error.empty() ? "missing_token" : refusal->error, refusal->description);
        co_return Refusal{401, kServerError, "Unauthorized: " + refusal->description,
                          header_list("WWW-Authenticate", ctx.bearer->unauthorized_challenge(*refusal))};
    }
    if (const auto* unavailable = std::get_if<VerifierUnavailable>(&verdict)) {
        // The verifier logs the failure once per attempt; a line per request would flood the log.
        log().debug("bearer token not checked: {}", unavailable->reason);
        verify_span.refused("verifier_unavailable", unavailable->reason);
        co_return Refusal{503, kServerError,
                          "Service Unavailable: the authorization server cannot be reached, try again later",
                          header_list("Retry-After", "5")};
    }
    caller.principal = std::get<AcceptedToken>(verdict).principal;
    if (!ctx.bearer->grants_required_scopes(*caller.principal)) {
        if (metrics::enabled()) http_metrics().token(TokenOutcome::insufficient_scope);
        const std::string description = "The token lacks a scope every request needs";
        verify_span.refused("insufficient_scope", description);
        const std::vector<std::string> no_more;  // named: GCC 12 mishandles braced temporaries in coroutines
        co_return Refusal{
            403, error_code::forbidden, "Forbidden: " + description,
            header_list("WWW-Authenticate", ctx.bearer->insufficient_scope_challenge(no_more, description))};
    }
    if (metrics::enabled()) http_metrics().token(TokenOutcome::accepted);
    verify_span.accepted(caller.trace);
    co_return std::nullopt;
}

WholeResponse refused(const Request& request, const Refusal& refusal, const HttpContext& ctx) {
    return error_response(request, refusal.status, refusal.code, refusal.message, ctx, refusal.headers);
}

// The store is consulted before anything is written: its failure can still be answered.
WholeResponse store_unavailable(const Request& request, HttpContext& ctx, std::string_view failure) {
    if (metrics::enabled()) store_metrics().unavailable.add();
    log().warn("session store unavailable: {}", failure);
    auto body = jsonrpc::make_error(request_id_of(request, ctx), kServerError,
                                    "Service Unavailable: the session store cannot be reached, try again later");
    return {503, request, boost::json::serialize(body), "application/json", header_list("Retry-After", "1"), ctx};
}

// The method's part that needs no waiting, for a caller whose credentials were accepted.
RequestStep route(Request& request, Caller& caller, HttpContext& ctx) {
    try {
        switch (request.method()) {
            case http::verb::post: return post(request, caller, ctx);
            case http::verb::get: return Waiting{std::move(caller), OpenStream{}};
            case http::verb::delete_: return Waiting{std::move(caller), EndSession{}};
            default:
                return error_response(request, 405, kServerError, "Method Not Allowed", ctx,
                                      header_list("Allow", "GET, POST, DELETE"));
        }
    } catch (const StoreUnavailable& e) {
        return store_unavailable(request, ctx, e.what());
    }
}

// What waits: each branch ends in an answer to write or a response to deliver, except a stream
// (GET) and a DELETE, which write their own.
asio::awaitable<RequestStep> wait_for(Waiting waiting, Request& request, HttpContext& ctx) {
    Caller& caller = waiting.caller;
    if (std::holds_alternative<CheckToken>(waiting.what)) {
        if (auto refusal = co_await check_bearer(caller, request, ctx)) co_return refused(request, *refusal, ctx);
        co_return route(request, caller, ctx);
    }
    if (auto* admit = std::get_if<AdmitSession>(&waiting.what)) {
        const auto client = caller.key();
        const auto admission = co_await near_store(ctx, [&] { return ctx.sessions.admit(admit->session, client); });
        co_return admitted(admission, request, *admit, ctx);
    }
    auto& serve = std::get<ServeInSession>(waiting.what);
    std::optional<RequestStep> served;  // a step has no empty state, which co_spawn's result needs
    co_await near_store(ctx, [&] {
        served.emplace(serve_in_session(request, serve.session_id, std::move(serve.document), serve.id, caller, ctx));
    });
    co_return std::move(*served);
}

}  // namespace

bool targets_endpoint(std::string_view target, const HttpContext& ctx) {
    return target.substr(0, target.find('?')) == ctx.options.endpoint;
}

RequestStep begin_request(Request& request, const ConnectionPeer& peer, HttpContext& ctx) {
    if (is_metadata_request(request, ctx)) {
        if (request.method() != http::verb::get)
            return error_response(request, 405, kServerError, "Method Not Allowed", ctx, header_list("Allow", "GET"));
        return WholeResponse(200, request, ctx.bearer->metadata_document(ctx.server), "application/json",
                             header_list("Cache-Control", "max-age=300"), ctx);
    }
    auto refusal = refuse_early(request, ctx);
    // A preflight carries no credentials: it is answered before the token check.
    if (!refusal && request.method() == http::verb::options && cors_allowed(request, ctx.options))
        return WholeResponse(204, request, {}, {}, cors_preflight_headers(request), ctx);
    Caller caller;
    if (!refusal) refusal = identify(caller, request, peer, ctx);
    if (refusal) return refused(request, *refusal, ctx);
    if (ctx.bearer) return Waiting{std::move(caller), CheckToken{}};
    return route(request, caller, ctx);
}

asio::awaitable<bool> finish_request(HttpStream& stream, Request& request, RequestStep step, HttpContext& ctx) {
    std::optional<std::string> store_failure;
    try {
        // A token's check leads to the method, which may wait in turn.
        while (auto* waiting = std::get_if<Waiting>(&step)) {
            if (std::holds_alternative<OpenStream>(waiting->what))
                co_return co_await get(stream, request, waiting->caller, ctx);
            if (std::holds_alternative<EndSession>(waiting->what))
                co_return co_await remove(stream, request, waiting->caller, ctx);
            step = co_await wait_for(std::move(*waiting), request, ctx);
        }
    } catch (const StoreUnavailable& e) {
        store_failure = e.what();
    }
    if (store_failure) step = store_unavailable(request, ctx, *store_failure);
    if (auto* delivery = std::get_if<Delivery>(&step)) {
        co_return co_await deliver(stream, request, delivery->outbox, std::move(delivery->cancel), {}, ctx);
    }
    const auto& response = std::get<WholeResponse>(step);
    auto [ec, n] = co_await start_write(stream, response, ctx);
    co_return response.written(ec, n);
}

}  // namespace mcp::detail
