#pragma once
// What every connection of one HTTP server shares.
#include "sessions/session_service.hpp"
#include "transport/http/bearer_auth.hpp"
#include "transport/http/client_address.hpp"
#include "transport/http/forwarded_header.hpp"
#include "transport/http/http_stream.hpp"
#include "transport/http/stream_span.hpp"
#include "transport/http/tls_context.hpp"
#include "util/client_quota.hpp"

#include <mcp/server/server.hpp>
#include <mcp/transport/http.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <string_view>

namespace mcp::detail {

// A request's header fields and body come from an arena its connection empties after each
// request (serve_connection): the dozen fields and the body of a request cost no allocation each.
// A copy of a request allocates its own (polymorphic allocators do not propagate on copy); a moved
// one still uses the arena, so nothing may keep a request by move beyond its own request.
using FieldAllocator = std::pmr::polymorphic_allocator<char>;
using RequestBody = boost::beast::http::basic_string_body<char, std::char_traits<char>, FieldAllocator>;
using Request = boost::beast::http::request<RequestBody, boost::beast::http::basic_fields<FieldAllocator>>;
using RequestParser = boost::beast::http::request_parser<RequestBody, FieldAllocator>;

// Threads for the steps that wait on a shared store: each wait is short (a Redis round trip, at
// most the command timeout), so a few threads carry many requests.
constexpr std::size_t kStoreThreads = 8;

struct HttpContext {
    HttpContext(Server& server, const HttpOptions& options);

    Server& server;
    const HttpOptions& options;
    SessionService& sessions;
    // Set when the endpoint checks bearer tokens (HttpOptions::auth).
    std::unique_ptr<BearerAuth> bearer;
    // Set when the server speaks HTTPS (HttpOptions::tls_cert_file).
    std::unique_ptr<TlsContexts> tls;
    // With a shared store, the request steps that wait for it run here rather than on the I/O
    // threads, which keep serving 2026 requests and SSE while Redis is slow or away.
    std::unique_ptr<boost::asio::thread_pool> store_threads;
    // The latest span of each traced GET stream, for the resumptions that come back here.
    StreamSpanIndex stream_spans;

    // Who a client is (docs/adr/0024-fair-limits.md), and what the transport counts per client.
    const TrustedProxies trusted_proxies;
    const ForwardedHeader forwarded_header;
    ClientQuota connections_by_client;  // HttpOptions::max_connections_per_client
    ClientQuota get_streams_by_client;  // HttpOptions::max_get_streams_per_client

    std::atomic<std::size_t> connections{0};
    std::atomic<bool> stopping{false};
    // SIGTERM came: /readyz fails from now on, though the endpoint may serve a while longer.
    std::atomic<bool> draining{false};
    std::atomic<std::size_t> metrics_connections{0};  // on the operator's port, not counted above

    // Every open connection, so shutdown can close them: the idle ones at once, the rest when
    // the grace period is over. A connection's coroutine must end before the context does.
    struct Open {
        std::function<void()> close;  // posts a close of the socket to the connection's executor
        std::atomic<bool> idle{false};
    };
    std::mutex open_mutex;
    std::list<Open> open;
    void close_connections(bool idle_only);
};

// The most a connection buffers of what it reads: the head limit (kMaxHeaderBytes at most,
// serve_http checks) plus room for the start of a pipelined request. A head, a trailer or a chunk
// line must fit in it whole.
std::size_t read_buffer_limit(const HttpOptions& options);

// One accepted connection: reads requests (with size and time limits) until it closes.
boost::asio::awaitable<void> serve_connection(boost::asio::ip::tcp::socket socket, HttpContext& ctx);

// Whether a request target names the MCP endpoint (a query string aside).
bool targets_endpoint(std::string_view target, const HttpContext& ctx);

// The far end of a connection: its address (the client a trusted balancer's PROXY protocol header
// named, if one did), and whether that is a trusted proxy, whose forwarding header then names the
// client of each request. (Not `Peer`: client/peer.hpp has that name in mcp::detail.)
struct ConnectionPeer {
    Address address;
    bool trusted = false;
    // `address` as clients are told apart (aggregated: an IPv6 prefix), written once per connection:
    // the client of an untrusted peer's every request.
    std::string client;
    // For the request's span: the connection's remote port (0 when a PROXY header named the peer),
    // and an IPv6 address whole, written only when spans are recorded (`client` is an IPv4 whole).
    std::uint16_t port = 0;
    std::string whole;
    std::string_view whole_address() const { return whole.empty() ? std::string_view(client) : whole; }
};

}  // namespace mcp::detail
