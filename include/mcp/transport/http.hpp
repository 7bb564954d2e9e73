#pragma once
// Streamable HTTP on one endpoint for both protocol eras: 2025-11-25 (sessions, SSE with
// resumption, GET and DELETE) and 2026-07-28 (stateless POST). Beast + Asio coroutines.
#include <mcp/auth/auth_options.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mcp {

class Server;

// The largest --max-header-bytes: Beast cannot hold a header field of 64 KiB or more, so heads,
// trailers and chunk lines are all kept below that.
inline constexpr std::size_t kMaxHeaderBytes = 60 * 1024;

struct HttpOptions {
    std::string host = "127.0.0.1";  // bind address; keep loopback unless a proxy fronts the server
    std::uint16_t port = 8080;
    std::string endpoint = "/mcp";
    std::size_t io_threads = 1;

    // DNS-rebinding protection: Host and Origin must name one of these (any port).
    std::vector<std::string> allowed_hosts{"localhost", "127.0.0.1", "[::1]"};

    std::size_t max_header_bytes = 16 * 1024;              // larger heads get 431; at most kMaxHeaderBytes
    std::chrono::milliseconds header_timeout{10'000};      // to receive a request head (slow clients)
    std::chrono::milliseconds body_timeout{30'000};        // to receive a request body
    std::chrono::milliseconds idle_timeout{60'000};        // keep-alive connection without a request
    std::chrono::milliseconds write_timeout{30'000};       // a client that stops reading is dropped
    std::chrono::milliseconds keepalive_interval{15'000};  // SSE comment on quiet long-lived streams
    std::size_t max_connections = 10'000;                  // beyond: accepted and closed at once
    std::size_t max_pending_bytes = 8 * 1024 * 1024;       // unsent bytes per stream before it is dropped

    // The SSE streams of 2025-era sessions (the sessions themselves: ServerOptions::sessions).
    // GET connections (listens and resumes) one session holds open at once. A client that lost
    // its connection with calls in flight resumes each call's stream: room for many.
    std::size_t max_streams_per_session = 64;

    // Who a client is, for the bounds kept per client (docs/adr/0024-fair-limits.md): its
    // principal, else its address. A peer in one of these blocks ("10.0.0.0/8", "2001:db8::/32")
    // is a proxy whose word is taken: the forwarding header below, and a PROXY protocol header
    // (v1 or v2) before its connection's bytes, name the client. From any other peer they mean
    // nothing (a PROXY header is then malformed HTTP). None by default.
    std::vector<std::string> trusted_proxies;
    // The forwarding header the trusted proxies write: "x-forwarded-for", or "forwarded" (RFC
    // 7239). Only that one is read: a client could write the other itself.
    std::string forwarded_header = "x-forwarded-for";
    // IPv6 clients are counted by this prefix of their address: one host usually holds a whole /64.
    unsigned ipv6_prefix = 64;
    // Bounds per client on this node. Connections from a trusted proxy are not counted per client.
    std::size_t max_connections_per_client = 1'000;  // beyond: closed at once, as past max_connections
    std::size_t max_get_streams_per_client = 100;    // GET streams of all of a client's sessions; 429 beyond
    std::chrono::milliseconds sse_retry{2'000};      // the retry: hint sent to clients

    std::chrono::milliseconds shutdown_grace{10'000};  // time given to calls in flight on SIGTERM
    // On SIGTERM readiness turns false at once, and the endpoint goes on serving this long, so that
    // a balancer watching /readyz stops sending new work, before it stops accepting and the grace
    // period begins.
    std::chrono::milliseconds drain_delay{0};

    // The operator's listener: Prometheus metrics (/metrics), liveness (/healthz) and readiness
    // (/readyz), on an address of its own, never on the MCP endpoint. Off when metrics_port is 0.
    std::string metrics_host = "127.0.0.1";
    std::uint16_t metrics_port = 0;

    // The endpoint's URL as clients reach it (behind a proxy, the proxy's): the canonical
    // resource URI of OAuth. Empty: http(s)://host:port/endpoint of the listening socket.
    std::string public_url;
    // Bearer tokens from an OAuth authorization server (off unless an issuer, JWKS or
    // introspection URL is set). Exclusive with Server::set_authenticator.
    AuthOptions auth;

    // HTTPS: a PEM certificate chain and its private key; with a client CA, clients must present
    // a certificate it signed (mTLS). SIGHUP reloads the files; open connections keep theirs.
    std::string tls_cert_file;
    std::string tls_key_file;
    std::string tls_client_ca_file;

    // Browser clients (CORS): origins ("https://app.example.com") allowed to call the endpoint
    // from a page. Each is accepted by the Origin check too. Empty: no CORS headers at all.
    std::vector<std::string> cors_origins;
};

// Serves until SIGINT or SIGTERM, then shuts down gracefully: stops accepting, ends listen and
// GET streams, lets calls in flight finish within shutdown_grace, cancels what is left and gives
// it two more seconds, returns 0. Calls that ignore their cancellation are left running (mcp::run
// then ends the process). Throws std::runtime_error when it cannot listen (address in use).
int serve_http(Server& server, const HttpOptions& options);

}  // namespace mcp
