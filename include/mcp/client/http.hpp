#pragma once
// The HTTP transports of a client, on the library's HTTP client (TLS, proxies, a keep-alive pool):
//
// - HttpTransport: Streamable HTTP in both eras. 2026-07-28: every message a POST carrying the
//   request metadata headers, the answer JSON or an SSE stream, cancellation by closing the
//   stream. 2025-11-25 down to 2025-03-26: the session (Mcp-Session-Id, renewed when the server
//   drops it, DELETEd on close), the GET stream for what the server sends unasked, and streams
//   resumed with Last-Event-ID after the server's retry delay. When the server refuses initialize
//   the way a 2024-11-05 HTTP+SSE server does, the client switches it to that transport.
// - LegacySseTransport: the deprecated HTTP+SSE transport of 2024-11-05 from the start: a GET
//   stream that names the endpoint to POST to, and every answer on that stream.
//
//   mcp::Client client(std::make_shared<mcp::HttpTransport>(mcp::HttpServerParams{
//       .url = "https://mcp.example.com/mcp", .headers = {{"Authorization", "Bearer " + token}}}));
//   client.connect();  // 2026-07-28, 2025-xx or HTTP+SSE, whichever the server speaks
//
// Both run on the client's I/O context with no thread of their own.
#include <mcp/client/oauth.hpp>
#include <mcp/client/transport.hpp>
#include <mcp/net/http_options.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp {

struct HttpServerParams {
    // The MCP endpoint (http:// or https://); for LegacySseTransport, the SSE endpoint.
    std::string url;
    // Sent with every request (Authorization, a tenant's key). Names the transport sets itself
    // (Accept, Content-Type, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name,
    // Mcp-Param-*, Last-Event-ID, and what the HTTP client sets) are refused.
    std::vector<std::pair<std::string, std::string>> headers;
    // TLS, proxies and the connection pool. A request holds a connection while its answer streams,
    // and so do listen streams and a 2025 session's GET stream: the pool allows 64 connections to
    // the server here, not the HTTP client's 8. `request_timeout` bounds what has no MCP timeout
    // of its own: notifications, responses, GET and DELETE heads.
    net::HttpClientOptions http{.max_connections_per_origin = 64};
    // A JSON answer or one SSE event's data; more fails the request with mcp::TransportError.
    std::size_t max_message_bytes = 4 * 1024 * 1024;
    // What is kept of the body of a refusal (4xx, 5xx) for mcp::TransportError::body().
    std::size_t max_error_body_bytes = 64 * 1024;

    // 2025 streams cut before their end (a POST's before its answer, the GET stream at any time)
    // are taken up again after the server's last retry: delay, this one when it sent none, never
    // more than max_reconnect_delay; after max_reconnect_attempts tries in a row that bring
    // nothing new, the request fails (the GET stream is given up).
    std::chrono::milliseconds reconnect_delay{1'000};
    std::chrono::milliseconds max_reconnect_delay{30'000};
    int max_reconnect_attempts = 5;

    // 2024-11-05 HTTP+SSE: how long the SSE stream may take to name the endpoint to POST to.
    std::chrono::milliseconds endpoint_timeout{10'000};

    // 2025: the server answered 404 to a message of the session, which it has ended; a new one is
    // being started (initialize again), and the requests it refused go again in that one. What the
    // old session held (resource subscriptions, the log level) is the application's to restore.
    // Runs on the client's I/O thread: it must not block nor call the client.
    std::function<void()> on_session_expired;

    // OAuth 2.1 (mcp/client/oauth.hpp): when set, a 401 or a 403 insufficient_scope starts the
    // authorization flow, and requests to the endpoint's origin carry its token. `headers` may
    // then hold no Authorization.
    std::optional<OAuthOptions> oauth;
};

namespace detail {
class HttpCore;
}

class HttpTransport final : public ClientTransport {
public:
    // Throws std::invalid_argument for a URL that is not http(s), a header name the transport sets
    // or that cannot be sent, HTTP options the HTTP client refuses, or OAuth options it cannot use.
    explicit HttpTransport(HttpServerParams params);
    ~HttpTransport() override;

    void open(boost::asio::io_context& io, TransportEvents events) override;
    void send(OutboundMessage message) override;
    // 2026-07-28: closes the request's stream (the cancellation) and returns true. 2025: closes it
    // too and returns false, as the client must then send notifications/cancelled.
    bool cancel(const boost::json::value& id) override;
    void answered(const boost::json::value& id) override;
    bool switch_to_legacy_sse() override;
    // Ends the 2025 session with DELETE (bounded by http.request_timeout, a refusal ignored).
    void close() override;

    // 2025: the session the server assigned (Mcp-Session-Id); empty before initialize, when the
    // server assigned none, and in 2026-07-28.
    std::string session_id() const;

private:
    std::shared_ptr<detail::HttpCore> core_;
};

class LegacySseTransport final : public ClientTransport {
public:
    // params.url is the SSE endpoint. Throws as HttpTransport's does.
    explicit LegacySseTransport(HttpServerParams params);
    ~LegacySseTransport() override;

    void open(boost::asio::io_context& io, TransportEvents events) override;
    void send(OutboundMessage message) override;
    void close() override;

private:
    std::shared_ptr<detail::HttpCore> core_;
};

}  // namespace mcp
