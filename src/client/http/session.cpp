// The 2025 session of Streamable HTTP (2025-11-25 basic/transports.mdx, "Session Management",
// "Listening for Messages from the Server"): the id the server assigned at initialize, sent back
// on every request; the GET stream for what the server sends unasked, reconnected with
// Last-Event-ID; a new session when the server answers 404; DELETE at the end.
#include "client/http/http_core.hpp"

#include "client/http/request_headers.hpp"
#include "net/http_error.hpp"
#include "util/log.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <functional>

namespace mcp::detail {

namespace asio = boost::asio;

namespace {

// The DELETE at the end waits no longer than this.
constexpr std::chrono::milliseconds kEndSessionTimeout{5'000};
// How long requests wait for the GET stream after notifications/initialized (stream_answered).
constexpr std::chrono::milliseconds kServerStreamWait{2'000};

// The spec's session ids: visible ASCII (0x21 to 0x7E).
bool is_session_id(std::string_view id) {
    return std::all_of(id.begin(), id.end(), [](unsigned char c) { return c >= 0x21 && c <= 0x7E; });
}

bool successful(unsigned status) { return status >= 200 && status < 300; }

// The protocolVersion of the initialize result among `messages` (a JSON body, or an SSE body's
// events); empty when none is there.
std::string agreed_version(std::string_view message) {
    boost::system::error_code ec;
    const auto parsed = boost::json::parse(message, ec);
    const auto* o = ec ? nullptr : parsed.if_object();
    const auto* result = o != nullptr ? o->if_contains("result") : nullptr;
    const auto* version =
        result != nullptr && result->is_object() ? result->as_object().if_contains("protocolVersion") : nullptr;
    return version != nullptr && version->is_string() ? std::string(version->get_string()) : std::string();
}

}  // namespace

std::optional<std::string> HttpCore::take_session(const net::HttpHeaders& headers) {
    const auto id = headers.get("Mcp-Session-Id").value_or("");
    if (!is_session_id(id)) return "the server's Mcp-Session-Id holds characters a session id may not";
    set_session_id(std::string(id));
    return std::nullopt;
}

void HttpCore::set_session_id(std::string id) {
    session_.id = id;
    std::lock_guard lock(mutex_);
    session_id_ = std::move(id);
}

// The handshake is kept, to be done again should the server drop the session. A new initialize
// starts a session afresh.
void HttpCore::remember_handshake(const Ptr& f) {
    if (f->modern) return;
    const auto& m = f->message;
    auto copy = [&] {
        OutboundMessage kept;
        kept.kind = m.kind;
        kept.text = m.text;
        kept.id = m.id;
        kept.method = m.method;
        kept.protocol_version = m.protocol_version;
        return kept;
    };
    if (m.method == "initialize" && f->is_request()) {
        session_.stream_stop.request_stop();
        set_session_id({});
        session_.initialize = copy();
        session_.initialized.reset();
    } else if (m.method == "notifications/initialized") {
        session_.initialized = copy();
        session_.version = m.protocol_version;
    }
}

// The server answered 404 to a message of session `lost`: that session is over. `refused`, the
// message it refused, never ran: a request goes again in the new session (once); a notification
// or a response meant nothing outside its session. Requests that were running in it fail where
// they are (their stream's resumption meets the same 404): they may have had effects.
void HttpCore::session_lost(const std::string& lost, const Ptr& refused) {
    if (refused) {
        if (refused->is_request() && !refused->resent) {
            refused->resent = true;
            session_.held.push_back(refused);
        } else if (refused->is_request()) {
            fail(refused, {"the server refused the request with HTTP 404 in a new session too", 404, {}});
        } else {
            log().debug("client: dropped a {} the ended session refused", refused->message.method);
            finish(refused);
        }
    }
    if (session_.renewing || ending_) return;
    if (lost != session_.id || !session_.initialize) {  // an older session's: the current one stands
        auto held = std::move(session_.held);
        session_.held.clear();
        for (auto& f : held) dispatch(f);
        return;
    }
    log().warn("client: the server ended the session {}; starting a new one", printable(lost));
    session_.renewing = true;
    session_.stream_stop.request_stop();
    set_session_id({});
    if (params_.on_session_expired) {
        try {
            params_.on_session_expired();
        } catch (const std::exception& e) {
            log().warn("client: on_session_expired threw: {}", e.what());
        }
    }
    spawn(renew_session());
}

asio::awaitable<void> HttpCore::renew_session() {
    const auto failure = co_await handshake_again();
    if (ending_) co_return;
    if (failure) co_return begin_close("the server ended the session and refused a new one: " + *failure);
    session_.renewing = false;
    log().info("client: new session {}", printable(session_.id));
    start_server_stream();
    auto held = std::move(session_.held);
    session_.held.clear();
    for (auto& f : held) dispatch(f);
}

// initialize and notifications/initialized as the client first sent them. The answer must agree
// on the version the client speaks.
asio::awaitable<std::optional<std::string>> HttpCore::handshake_again() {
    if (!session_.initialize || !session_.initialized) co_return "the handshake was not complete";
    auto request = short_post(params_.url, post_headers(*session_.initialize, {}, params_.headers),
                              session_.initialize->text, params_.max_message_bytes);
    const auto fetched = co_await fetch(std::move(request));
    const auto& answer = fetched.response;
    if (!fetched.error.empty()) co_return fetched.error;
    if (!successful(answer.status)) co_return "initialize answered HTTP " + std::to_string(answer.status);
    if (auto unusable = take_session(answer.headers)) co_return unusable;
    std::string agreed;
    if (has_media_type(answer.headers, "text/event-stream")) {
        net::SseParser parser([&](net::SseEvent&& e) {
            if (agreed.empty()) agreed = agreed_version(e.data);
        });
        try {
            parser.feed(answer.body);
        } catch (const net::SseError& e) {
            co_return std::string(e.what());
        }
    } else {
        agreed = agreed_version(answer.body);
    }
    if (agreed != session_.version)
        co_return "initialize agreed on " + (agreed.empty() ? std::string("nothing") : printable(agreed)) + ", not " +
            session_.version;

    request = short_post(params_.url, post_headers(*session_.initialized, session_.id, params_.headers),
                         session_.initialized->text, params_.max_error_body_bytes);
    const auto confirmed = co_await fetch(std::move(request));
    if (!confirmed.error.empty()) co_return confirmed.error;
    if (!successful(confirmed.response.status))
        co_return "notifications/initialized answered HTTP " + std::to_string(confirmed.response.status);
    co_return std::nullopt;
}

// The GET stream answered (open, refused or failed), or it took too long: held requests go.
void HttpCore::stream_answered() {
    if (!session_.opening_stream) return;
    session_.opening_stream = false;
    if (session_.renewing) return;  // they go with the new session
    auto held = std::move(session_.held);
    session_.held.clear();
    for (auto& f : held) dispatch(f);
}

asio::awaitable<void> HttpCore::stop_waiting_for_stream() {
    co_await pause(kServerStreamWait, closing_stop_.get_token());
    if (!ending_ && session_.opening_stream) {
        log().debug("client: no answer to the GET stream in {} ms; requests go without it", kServerStreamWait.count());
        stream_answered();
    }
}

void HttpCore::start_server_stream() {
    if (mode_ != Mode::streamable || session_.renewing || ending_) return;
    session_.stream_stop.request_stop();
    session_.stream_stop = std::stop_source();
    spawn(listen_to_server(session_.id, session_.version, session_.stream_stop.get_token()));
}

// The GET stream: what the server sends unasked (its requests, list changes). 405: the server has
// none. Cut or ended, it is opened again after the retry delay, from the last event id.
asio::awaitable<void> HttpCore::listen_to_server(std::string session, std::string version, std::stop_token stop) {
    SseCursor cursor;
    int fruitless = 0;
    const std::function<void(net::SseEvent &&)> on_event = [this](net::SseEvent&& event) {
        if (event.type == "message" && !event.data.empty()) deliver(event.data);
    };
    for (;;) {
        auto opened = co_await open_event_stream(session, version, cursor.last_event_id, stop);
        stream_answered();
        if (stop.stop_requested()) co_return;
        if (opened.stream) {
            const auto end = co_await read_events(*opened.stream, cursor, params_.max_message_bytes, on_event);
            if (stop.stop_requested() || end.how == StreamEnd::How::stopped) co_return;
            if (end.how == StreamEnd::How::over_limit) {
                log().warn("client: the server's GET stream sent an event over max_message_bytes; it is not reopened");
                co_return;
            }
            if (end.progress) fruitless = 0;
        } else if (opened.status == 404 && !session.empty()) {
            co_return session_lost(session, nullptr);
        } else if (opened.status == 405 || opened.status == 404) {
            // 404 without a session: the endpoint takes POST only.
            log().debug("client: the server offers no GET stream ({})", opened.status);
            co_return;
        } else if (opened.status != 0) {
            log().warn("client: the server refused the GET stream with HTTP {}: {}", opened.status,
                       printable(opened.body));
            co_return;
        }
        if (++fruitless > params_.max_reconnect_attempts) {
            log().warn("client: gave up the server's GET stream after {} attempts{}", params_.max_reconnect_attempts,
                       opened.error.empty() ? "" : ": " + opened.error);
            co_return;
        }
        co_await pause(reconnect_delay(cursor), stop);
        if (stop.stop_requested()) co_return;
    }
}

asio::awaitable<void> HttpCore::end_session(std::string session, std::string version) {
    net::HttpRequest request;
    request.method = "DELETE";
    request.url = params_.url;
    request.headers = end_session_headers(session, version, params_.headers);
    request.timeout = std::min(params_.http.request_timeout, kEndSessionTimeout);
    request.max_body_bytes = params_.max_error_body_bytes;
    authorize(request);
    try {
        const auto answer = co_await http_->fetch(std::move(request));
        // 405: the server does not let clients end sessions; it will expire it.
        log().debug("client: DELETE of the session answered HTTP {}", answer.status);
    } catch (const net::HttpError& e) {
        log().debug("client: DELETE of the session failed: {}", e.what());
    }
}

}  // namespace mcp::detail
