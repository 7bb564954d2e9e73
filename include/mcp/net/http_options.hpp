#pragma once
// The settings of the library's HTTP client (src/net): TLS, proxies, the connection pool,
// timeouts and limits. The MCP client's options embed this struct; the authorization server's
// fetcher fills one of its own.
#include <chrono>
#include <cstddef>
#include <string>

namespace mcp::net {

struct TlsOptions {
    // PEM CA certificates trusted instead of the system's roots.
    std::string ca_file;
    // A PEM client certificate (chain) and its key, presented when a server asks for one (mTLS).
    std::string client_cert_file;
    std::string client_key_file;
    // Off: any certificate for any name is accepted. For tests against self-signed servers only.
    bool verify = true;
};

struct ProxyOptions {
    // Read https_proxy, http_proxy and no_proxy (or HTTPS_PROXY, HTTP_PROXY, NO_PROXY) when the
    // client is made. A value set below wins over the environment's.
    bool from_environment = true;
    // "http://[user:password@]host[:port]". https:// URLs go through `https_proxy` in a CONNECT
    // tunnel; http:// URLs through `http_proxy`, asked with absolute-form targets.
    std::string http_proxy;
    std::string https_proxy;
    // Comma-separated: "example.com" (the host and its subdomains; a leading dot changes nothing),
    // "example.com:8443" (that port only), an IP address, or "*" for every host.
    std::string no_proxy;
    // Loopback (localhost, 127.0.0.0/8, ::1) is never proxied unless this is set.
    bool proxy_loopback = false;
};

struct HttpClientOptions {
    TlsOptions tls;
    ProxyOptions proxy;

    // Keep-alive connections open to one origin (scheme, host, port) at once; further requests
    // wait in the origin's queue, which holds at most `max_queued_per_origin` (beyond: refused).
    std::size_t max_connections_per_origin = 8;
    std::size_t max_queued_per_origin = 1024;
    // A pooled connection unused this long is closed.
    std::chrono::milliseconds idle_connection_timeout{30'000};

    // TCP connect, the proxy's CONNECT and the TLS handshake, within the request's deadline.
    std::chrono::milliseconds connect_timeout{10'000};
    // A request's deadline, from the call on: time queued, connecting, sending, and reading the
    // response's head; for a whole read, its body too. A request may set its own.
    std::chrono::milliseconds request_timeout{30'000};
    // A streamed body that stays quiet this long fails; 0: a stream may be quiet forever.
    std::chrono::milliseconds stream_idle_timeout{0};

    std::size_t max_header_bytes = 64 * 1024;      // the response's status line and fields
    std::size_t max_body_bytes = 8 * 1024 * 1024;  // a whole read's body; a request may set its own
    std::string user_agent = "mcp-cpp";
};

}  // namespace mcp::net
