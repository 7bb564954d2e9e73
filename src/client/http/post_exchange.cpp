// One message's POST to the MCP endpoint and its answer (2026-07-28 basic/transports/
// streamable-http.mdx, "Sending Messages" and "Receiving Messages"; 2025-11-25
// basic/transports.mdx, "Resumability and Redelivery" for a 2025 stream cut before its answer).
#include "client/http/http_core.hpp"

#include "client/http/request_headers.hpp"
#include "net/http_error.hpp"
#include "util/log.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <functional>

namespace mcp::detail {

namespace asio = boost::asio;

namespace {

// A request's POST has no deadline of its own: the client's request timeout cancels it.
constexpr std::chrono::hours kNoDeadline{24 * 365};
// How long a stream may stay open after its answer came before it is closed.
constexpr std::chrono::milliseconds kLinger{1'000};

bool successful(unsigned status) { return status >= 200 && status < 300; }

// A JSON-RPC response whose id is null.
bool answers_no_request(std::string_view body) {
    boost::system::error_code ec;
    const auto parsed = boost::json::parse(body, ec);
    const auto* object = ec ? nullptr : parsed.if_object();
    const auto* id = object != nullptr ? object->if_contains("id") : nullptr;
    return id != nullptr && id->is_null() && !object->contains("method");
}

std::string refused(unsigned status, const std::string& url) {
    return "HTTP " + std::to_string(status) + " from " + url;
}

}  // namespace

asio::awaitable<void> HttpCore::post(Ptr f) {
    if (f->is_request()) co_return co_await post_request(std::move(f));
    remember_handshake(f);
    f->session_id = f->modern ? std::string() : session_.id;
    auto request = short_post(params_.url, post_headers(f->message, f->session_id, params_.headers), f->message.text,
                              params_.max_error_body_bytes);
    const auto fetched = co_await fetch(std::move(request));
    const auto& response = fetched.response;
    if (ending_) co_return;  // closing: nobody waits for it
    const bool initialized = !f->modern && f->message.method == "notifications/initialized";
    if (initialized && (!fetched.error.empty() || !successful(response.status))) stream_answered();  // none comes
    if (!fetched.error.empty()) co_return fail(f, {fetched.error, 0, {}});
    if (response.status == 404 && !f->session_id.empty()) co_return session_lost(f->session_id, f);
    if (!successful(response.status))
        co_return fail(f, {refused(response.status, params_.url), static_cast<int>(response.status), response.body});
    finish(f);
    if (initialized) start_server_stream();
}

asio::awaitable<void> HttpCore::post_request(Ptr f) {
    remember_handshake(f);
    f->session_id = f->modern ? std::string() : session_.id;
    net::HttpRequest request;
    request.method = "POST";
    request.url = params_.url;
    request.headers = post_headers(f->message, f->session_id, params_.headers);
    request.body = f->message.text;
    request.timeout = kNoDeadline;
    request.stop = f->stop.get_token();
    auto opened = co_await open_stream(std::move(request));
    auto stream = std::move(opened.stream);
    auto error = std::move(opened.error);
    if (f->stop.stop_requested()) co_return finish(f);
    if (!stream) co_return fail(f, {error, 0, {}});

    const auto status = stream->status();
    if (status == 404 && !f->session_id.empty()) co_return session_lost(f->session_id, f);
    if (!successful(status)) {
        // A JSON-RPC error answering the request comes with a 4xx in 2026 (-32601 with 404, the
        // protocol errors with 400): the server's error is the answer. Anything else is the status's.
        auto body = co_await read_bounded(*stream, params_.max_error_body_bytes);
        // An error with a null id (the server could not tell the request's) answers this POST all
        // the same: the refusal below carries it, and the client is not handed a response for
        // no request.
        if (has_media_type(stream->headers(), "application/json") && !answers_no_request(body)) deliver(body);
        if (f->answered) co_return finish(f);
        co_return fail(f, {refused(status, params_.url), static_cast<int>(status), std::move(body)});
    }
    if (f->message.method == "initialize") {
        if (auto unusable = take_session(stream->headers()))
            co_return fail(f, {*unusable, static_cast<int>(status), {}});
    }
    if (has_media_type(stream->headers(), "text/event-stream")) co_return co_await follow(f, std::move(stream));
    if (!has_media_type(stream->headers(), "application/json")) {
        auto body = co_await read_bounded(*stream, params_.max_error_body_bytes);
        const auto type = std::string(stream->headers().get("Content-Type").value_or("none"));
        co_return fail(f, {"the server answered with neither JSON nor an event stream (HTTP " + std::to_string(status) +
                               ", Content-Type: " + printable(type) + ")",
                           static_cast<int>(status), std::move(body)});
    }
    std::string body;
    try {
        body = co_await stream->read_all(params_.max_message_bytes);
    } catch (const net::HttpError& e) {
        error = e.kind() == net::HttpErrorKind::body_too_large ? "the server's answer is over max_message_bytes (" +
                                                                     std::to_string(params_.max_message_bytes) + ")"
                                                               : e.what();
    }
    if (f->stop.stop_requested()) co_return finish(f);
    if (!error.empty()) co_return fail(f, {error, 0, {}});
    deliver(body);
    if (f->answered) co_return finish(f);
    fail(f, {"the server's JSON answer was no response to this request", static_cast<int>(status),
             body.substr(0, params_.max_error_body_bytes)});
}

// The request's SSE stream: its events to the client until its answer. A 2026 stream that ends
// before it has failed; a 2025 one is resumed with GET and Last-Event-ID after the retry delay.
asio::awaitable<void> HttpCore::follow(Ptr f, std::shared_ptr<net::HttpStream> stream) {
    SseCursor cursor;
    int fruitless = 0;  // reconnections in a row that brought nothing new
    for (;;) {
        if (stream) {
            std::stop_source ended;
            bool lingering = false;
            // Named: GCC 12 frees some temporaries of a co_await expression twice.
            const std::function<void(net::SseEvent &&)> on_event = [&](net::SseEvent&& event) {
                if (event.type != "message" || event.data.empty()) return;
                deliver(event.data);
                if (f->answered && !lingering) {
                    lingering = true;
                    spawn(linger(stream, ended.get_token()));
                }
            };
            const auto end = co_await read_events(*stream, cursor, params_.max_message_bytes, on_event);
            ended.request_stop();
            stream.reset();
            if (f->answered || f->stop.stop_requested() || ending_) co_return finish(f);
            if (end.how == StreamEnd::How::over_limit)
                co_return fail(f, {"the server sent an event over max_message_bytes (" +
                                       std::to_string(params_.max_message_bytes) + "): " + end.why,
                                   0,
                                   {}});
            const auto cut = end.how == StreamEnd::How::cut ? " (" + end.why + ")" : std::string();
            if (f->modern) co_return fail(f, {"the server ended the response stream without answering" + cut, 0, {}});
            if (cursor.last_event_id.empty())
                co_return fail(f, {"the server ended the response stream without answering and without an event id "
                                   "to resume it from" +
                                       cut,
                                   0,
                                   {}});
            if (end.progress) fruitless = 0;
        }
        if (++fruitless > params_.max_reconnect_attempts)
            co_return fail(f, {"the response stream could not be resumed after " +
                                   std::to_string(params_.max_reconnect_attempts) + " attempts",
                               0,
                               {}});
        const auto stop = f->stop.get_token();
        co_await pause(reconnect_delay(cursor), stop);
        if (f->stop.stop_requested() || ending_) co_return finish(f);
        auto resumed =
            co_await open_event_stream(f->session_id, f->message.protocol_version, cursor.last_event_id, stop);
        if (f->stop.stop_requested() || ending_) co_return finish(f);
        if (resumed.status == 404) {
            fail(f, {"the session ended while the request ran (HTTP 404 to its resumption)", 404,
                     std::move(resumed.body)});
            co_return session_lost(f->session_id, nullptr);
        }
        if (!resumed.stream && resumed.status != 0)
            co_return fail(f,
                           {"the server refused to resume the response stream: " + refused(resumed.status, params_.url),
                            static_cast<int>(resumed.status), std::move(resumed.body)});
        if (!resumed.stream) log().info("client: resuming a response stream failed: {}", resumed.error);
        stream = std::move(resumed.stream);
    }
}

asio::awaitable<void> HttpCore::linger(std::shared_ptr<net::HttpStream> stream, std::stop_token ended) {
    co_await pause(kLinger, ended);
    if (!ended.stop_requested()) stream->cancel();
}

asio::awaitable<HttpCore::EventStream> HttpCore::open_event_stream(std::string session, std::string version,
                                                                   std::string last_event_id, std::stop_token stop) {
    net::HttpRequest request;
    request.url = params_.url;
    request.headers = stream_headers(session, version, last_event_id, params_.headers);
    request.stop = std::move(stop);
    EventStream out;
    auto opened = co_await open_stream(std::move(request));
    out.stream = std::move(opened.stream);
    out.error = std::move(opened.error);
    if (!out.stream) co_return out;
    out.status = out.stream->status();
    if (successful(out.status) && has_media_type(out.stream->headers(), "text/event-stream")) co_return out;
    auto refusal = std::move(out.stream);
    out.body = co_await read_bounded(*refusal, params_.max_error_body_bytes);
    if (successful(out.status)) {
        out.error = "the server's answer to GET is no event stream";
        out.status = 0;
    }
    co_return out;
}

}  // namespace mcp::detail
