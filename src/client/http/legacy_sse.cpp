// The deprecated HTTP+SSE transport of 2024-11-05 (basic/transports.mdx, "HTTP with SSE"): a GET
// stream whose first event, `endpoint`, names where to POST messages; every message of the
// server, answers included, arrives as a `message` event on that stream. The endpoint must be on
// the stream's own origin. The stream ending ends the transport.
#include "client/http/http_core.hpp"

#include "client/http/request_headers.hpp"
#include "net/url.hpp"
#include "util/log.hpp"

#include <boost/asio/use_awaitable.hpp>

#include <functional>

namespace mcp::detail {

namespace asio = boost::asio;

namespace {

bool successful(unsigned status) { return status >= 200 && status < 300; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
    return s;
}

}  // namespace

void HttpCore::start_legacy() {
    if (ending_) return;
    mode_ = Mode::legacy_sse;
    session_.stream_stop.request_stop();
    spawn(run_legacy_stream());
}

asio::awaitable<void> HttpCore::run_legacy_stream() {
    net::HttpRequest request;
    request.url = params_.url;
    request.headers = legacy_stream_headers(params_.headers);
    request.stop = closing_stop_.get_token();
    auto opened = co_await open_stream(std::move(request));
    auto stream = std::move(opened.stream);
    auto error = std::move(opened.error);
    if (ending_) co_return;
    if (!stream) co_return legacy_failed({"no HTTP+SSE stream at " + params_.url + ": " + error, 0, {}});
    const auto status = stream->status();
    if (!successful(status) || !has_media_type(stream->headers(), "text/event-stream")) {
        auto body = co_await read_bounded(*stream, params_.max_error_body_bytes);
        co_return legacy_failed({"no HTTP+SSE stream at " + params_.url + ": HTTP " + std::to_string(status) +
                                     (successful(status) ? " without an event stream" : ""),
                                 static_cast<int>(status), std::move(body)});
    }
    spawn(await_endpoint(stream));
    SseCursor cursor;
    const std::function<void(net::SseEvent &&)> on_event = [&](net::SseEvent&& event) {
        if (event.type == "endpoint") return take_endpoint(event.data, *stream);
        if (event.type == "message" && !event.data.empty()) deliver(event.data);
    };
    const auto end = co_await read_events(*stream, cursor, params_.max_message_bytes, on_event);
    legacy_.named.request_stop();
    if (ending_) co_return;
    if (legacy_.endpoint.empty()) {
        co_return legacy_failed({end.how == StreamEnd::How::stopped
                                     ? "the HTTP+SSE stream named no endpoint within " +
                                           std::to_string(params_.endpoint_timeout.count()) + " ms"
                                     : "the HTTP+SSE stream ended before it named an endpoint",
                                 0,
                                 {}});
    }
    begin_close(end.how == StreamEnd::How::ended ? "the server ended the HTTP+SSE stream"
                                                 : "the HTTP+SSE stream failed: " + end.why);
}

asio::awaitable<void> HttpCore::await_endpoint(std::shared_ptr<net::HttpStream> stream) {
    co_await pause(params_.endpoint_timeout, legacy_.named.get_token());
    if (legacy_.endpoint.empty() && !ending_) stream->cancel();
}

// The endpoint, resolved against the stream's URL: on the same origin, or refused (a server must
// not send the client's messages, and the headers that go with them, elsewhere).
void HttpCore::take_endpoint(std::string_view data, net::HttpStream& stream) {
    if (!legacy_.endpoint.empty()) {
        log().debug("client: the HTTP+SSE server named a second endpoint; the first one stands");
        return;
    }
    const auto resolved = net::resolve_url(params_.url, trimmed(data));
    const auto target = resolved ? net::parse_url(*resolved) : std::nullopt;
    if (!target) {
        stream.cancel();
        return legacy_failed({"the HTTP+SSE server named an endpoint that is no URL: " + printable(data), 0, {}});
    }
    if (target->origin() != net::parse_url(params_.url)->origin()) {
        stream.cancel();
        return legacy_failed(
            {"the HTTP+SSE server named an endpoint on another origin, refused: " + printable(*resolved), 0, {}});
    }
    legacy_.endpoint = *resolved;
    legacy_.named.request_stop();
    auto waiting = std::move(legacy_.waiting);
    legacy_.waiting.clear();
    for (auto& f : waiting) dispatch(f);
}

asio::awaitable<void> HttpCore::post_legacy(Ptr f) {
    auto request = short_post(legacy_.endpoint, legacy_post_headers(params_.headers), f->message.text,
                              params_.max_error_body_bytes);
    const auto fetched = co_await fetch(std::move(request));
    const auto& response = fetched.response;
    if (!fetched.error.empty()) co_return fail(f, {fetched.error, 0, {}});
    if (!successful(response.status))
        co_return fail(f, {"HTTP " + std::to_string(response.status) + " from " + legacy_.endpoint,
                           static_cast<int>(response.status), response.body});
    finish(f);  // a request's answer comes on the stream
}

// The stream cannot be used: what waited for it fails with why, and the transport closes.
void HttpCore::legacy_failed(const TransportFailure& failure) {
    auto waiting = std::move(legacy_.waiting);
    legacy_.waiting.clear();
    for (auto& f : waiting) fail(f, failure);
    begin_close(failure.message);
}

}  // namespace mcp::detail
