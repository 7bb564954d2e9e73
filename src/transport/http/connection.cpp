#include "transport/http/endpoint.hpp"
#include "transport/http/http_context.hpp"
#include "transport/http/http_metrics.hpp"
#include "transport/http/proxy_protocol.hpp"
#include "transport/http/response_writer.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/server/detail/transport_access.hpp>

#include "util/client_key.hpp"
#include "util/limit_report.hpp"
#include "util/log.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include <array>
#include <cstddef>
#include <memory_resource>
#include <optional>
#include <string>
#include <tuple>
#include <variant>

namespace mcp::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

std::size_t read_buffer_limit(const HttpOptions& o) { return o.max_header_bytes + 4096; }

void HttpContext::close_connections(bool idle_only) {
    std::lock_guard lock(open_mutex);
    for (auto& connection : open) {
        if (!idle_only || connection.idle.load()) connection.close();
    }
}

namespace {
constexpr std::size_t kReadBufferBytes = 4096;
// Room for a typical request's header fields (each a name, a value and Beast's bookkeeping) and
// body; a larger request takes more from the heap, through the same arena.
constexpr std::size_t kRequestArenaBytes = 2048;
}  // namespace

HttpContext::HttpContext(Server& s, const HttpOptions& o)
    : server(s),
      options(o),
      sessions(detail::session_service(s)),
      trusted_proxies(o.trusted_proxies),
      forwarded_header(o.forwarded_header == "forwarded" ? ForwardedHeader::forwarded
                                                         : ForwardedHeader::x_forwarded_for) {
    if (sessions.shared()) store_threads = std::make_unique<boost::asio::thread_pool>(kStoreThreads);
}

namespace {

// Registers the connection with the context for its whole life, so shutdown can close it.
class Registration {
public:
    Registration(HttpContext& ctx, const std::shared_ptr<HttpStream>& stream) : ctx_(ctx) {
        std::weak_ptr<HttpStream> weak = stream;
        auto executor = stream->get_executor();
        std::lock_guard lock(ctx_.open_mutex);
        it_ = ctx_.open.emplace(ctx_.open.end());
        it_->close = [executor, weak] {
            asio::post(executor, [weak] {
                if (auto s = weak.lock()) {
                    boost::system::error_code ignored;
                    s->socket().close(ignored);
                }
            });
        };
    }
    ~Registration() {
        std::lock_guard lock(ctx_.open_mutex);
        ctx_.open.erase(it_);
    }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    void idle(bool yes) { it_->idle.store(yes); }

private:
    HttpContext& ctx_;
    std::list<HttpContext::Open>::iterator it_;
};

// An error response, then the connection closes: the rest of the request is not read, and where
// the next one would start is unknown.
struct ReadRefusal {
    unsigned status;
    int code;
    std::string message;
};

// A response for a request read only in part: as much of it as the parser got (the method
// decides whether a body may follow, the version how the head is written), never kept alive.
Request answered_part(const RequestParser& parser) {
    Request request;
    if (parser.get().method() != http::verb::unknown) request.method(parser.get().method());
    request.version(parser.get().version());
    request.keep_alive(false);
    return request;
}

asio::awaitable<void> refuse_and_close(HttpStream& stream, const Request& request, const ReadRefusal& refusal,
                                       HttpContext& ctx) {
    if (metrics::enabled())
        http_metrics().refused(refusal.status == 413 ? HttpRefusal::body_too_large : HttpRefusal::malformed);
    co_await write_error(stream, request, refusal.status, refusal.code, refusal.message, ctx);
}

// What a read error calls for: 413 for a body over the limit, 400 for what the parser refuses as
// not HTTP/1.1 (bad syntax, conflicting lengths, a head, trailer or chunk line too long for the
// read buffer); nothing for a client that went away or timed out.
std::optional<ReadRefusal> refusal_for(const boost::system::error_code& ec, std::size_t max_body) {
    if (ec == http::error::body_limit) {
        return ReadRefusal{413, error_code::invalid_request,
                           "Message too large: the limit is " + std::to_string(max_body) + " bytes"};
    }
    if (ec.category() == beast::http::make_error_code(http::error::bad_version).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
        return ReadRefusal{400, error_code::invalid_request, "Bad Request: malformed HTTP (" + ec.message() + ")"};
    }
    return std::nullopt;
}

// A small body usually arrives with its head: parse what the buffer holds without another
// asynchronous read. Leaves `ec` clear when the parser just needs more bytes.
void parse_buffered_body(RequestParser& parser, beast::flat_buffer& buffer, boost::system::error_code& ec) {
    parser.eager(true);
    while (!parser.is_done() && buffer.size() > 0) {
        const auto used = parser.put(buffer.data(), ec);
        buffer.consume(used);
        if (ec == http::error::need_more) ec = {};
        if (ec || used == 0) return;
    }
}

struct ConnectionCount {
    explicit ConnectionCount(HttpContext& c) : ctx(c) {}
    ~ConnectionCount() { --ctx.connections; }
    HttpContext& ctx;
};

// What came of looking for a PROXY protocol header.
struct ProxyRead {
    bool refused = false;           // a header that breaks the format, or not whole in time
    std::optional<Address> source;  // the client it names, if any
};

// A PROXY protocol header from a trusted balancer, read before anything else on the connection
// (TLS included). Its bytes are peeked at until they decide, then only the header is consumed, so
// a connection without one is served from its first byte.
asio::awaitable<ProxyRead> read_proxy_header(asio::ip::tcp::socket& socket, std::chrono::milliseconds timeout) {
    auto executor = co_await asio::this_coro::executor;
    asio::steady_timer deadline(executor, timeout);
    deadline.async_wait([&socket](const boost::system::error_code& ec) {
        if (!ec) socket.cancel();  // a balancer that sends part of a header and stops
    });
    asio::steady_timer pause(executor);
    std::array<char, kMaxProxyHeaderBytes> peeked{};
    for (;;) {
        auto [ec] = co_await socket.async_wait(asio::ip::tcp::socket::wait_read, use_tuple);
        std::size_t n = 0;
        if (!ec) n = socket.receive(asio::buffer(peeked), asio::ip::tcp::socket::message_peek, ec);
        if (ec || n == 0) co_return ProxyRead{true, {}};
        auto parsed = parse_proxy_header(std::string_view(peeked.data(), n));
        if (const auto* header = std::get_if<ProxyHeader>(&parsed)) {
            deadline.cancel();
            std::tie(ec, std::ignore) =
                co_await asio::async_read(socket, asio::buffer(peeked.data(), header->length), use_tuple);
            co_return ProxyRead{static_cast<bool>(ec), header->source};
        }
        switch (std::get<ProxyVerdict>(parsed)) {
            case ProxyVerdict::not_proxy: deadline.cancel(); co_return ProxyRead{};
            case ProxyVerdict::invalid: co_return ProxyRead{true, {}};
            case ProxyVerdict::need_more: break;
        }
        // The bytes there are readable already: wait a moment for the rest rather than spin.
        pause.expires_after(std::chrono::milliseconds(5));
        co_await pause.async_wait(use_tuple);
        if (deadline.expiry() <= std::chrono::steady_clock::now()) co_return ProxyRead{true, {}};
    }
}

// Who is at the far end of a new connection; nothing when a trusted peer's PROXY header is refused.
asio::awaitable<std::optional<ConnectionPeer>> peer_of(asio::ip::tcp::socket& socket, const HttpContext& ctx) {
    boost::system::error_code ec;
    const auto remote = socket.remote_endpoint(ec);
    if (ec) co_return std::nullopt;  // gone already
    ConnectionPeer peer{unmapped(remote.address()), false};
    peer.port = remote.port();
    peer.trusted = ctx.trusted_proxies.trusts(peer.address);
    if (!peer.trusted) co_return peer;
    const auto proxy = co_await read_proxy_header(socket, ctx.options.header_timeout);
    if (proxy.refused) {
        if (metrics::enabled()) http_metrics().refused(HttpRefusal::malformed);
        log().debug("PROXY protocol header from {} refused", peer.address.to_string());
        co_return std::nullopt;
    }
    if (proxy.source) peer = ConnectionPeer{*proxy.source, ctx.trusted_proxies.trusts(*proxy.source)};
    co_return peer;
}

}  // namespace

asio::awaitable<void> serve_connection(asio::ip::tcp::socket socket, HttpContext& ctx) {
    ConnectionCount count(ctx);  // incremented by the acceptor
    auto peer = co_await peer_of(socket, ctx);
    if (!peer) co_return;
    peer->client = aggregated(peer->address, ctx.options.ipv6_prefix);
    if (peer->address.is_v6() && tracer(ctx.server) != nullptr) peer->whole = peer->address.to_string();
    // A client's connections are counted by its address; a proxy's carry many clients' requests.
    std::optional<ClientQuota::Place> place;
    if (!peer->trusted) {
        const auto client = client_key({}, peer->client);
        place = ctx.connections_by_client.try_take(client, ctx.options.max_connections_per_client);
        if (!place) {
            report_refusal(Bound::connections, Limit::client, client);
            co_return;  // closed at once, as at --max-connections: no request was read to answer
        }
    }
    // Shared so that a shutdown posted from elsewhere can tell whether the connection still exists.
    auto owner = ctx.tls ? std::make_shared<HttpStream>(std::move(socket), ctx.tls->current())
                         : std::make_shared<HttpStream>(std::move(socket));
    HttpStream& stream = *owner;
    Registration registration(ctx, owner);
    if (stream.is_tls()) {
        // The handshake is part of the head: it must be done in the same time.
        stream.expires_after(ctx.options.header_timeout);
        auto [ec] = co_await stream.tls().async_handshake(asio::ssl::stream_base::server, use_tuple);
        if (ec) {
            log().debug("TLS handshake failed: {}", ec.message());
            co_return;
        }
    }
    // Bounded: a head, a trailer or a chunk-size line must fit, whole, in the buffer. Without a
    // bound, a chunk extension that never ends would be buffered without limit, and a trailer
    // field of 64 KiB would make Beast throw outside this coroutine.
    beast::flat_buffer buffer(read_buffer_limit(ctx.options));
    // Beast reads at most max(512, free capacity) bytes at a time: room for a typical request
    // saves a second read system call for each.
    buffer.reserve(kReadBufferBytes);
    const std::size_t max_body = ctx.server.options().limits.max_message_bytes;
    bool first = true;
    std::array<std::byte, kRequestArenaBytes> request_space;
    std::pmr::monotonic_buffer_resource request_arena(request_space.data(), request_space.size());

    while (!ctx.stopping.load()) {
        request_arena.release();  // the previous request, and its parser, are gone
        RequestParser parser(std::piecewise_construct, std::make_tuple(FieldAllocator(&request_arena)),
                             std::make_tuple(FieldAllocator(&request_arena)));
        parser.header_limit(static_cast<std::uint32_t>(ctx.options.max_header_bytes));
        parser.body_limit(max_body);
        {
            registration.idle(true);
            // The head must arrive in time: a client trickling bytes (slowloris) only holds its own
            // connection, and only until this expires.
            stream.expires_after(first ? ctx.options.header_timeout : ctx.options.idle_timeout);
            auto [ec, n] = co_await http::async_read_header(stream, buffer, parser, use_tuple);
            if (metrics::enabled()) {
                http_metrics().bytes_in.add(n);
                // Silence on a connection between requests is not a refusal; half a head is.
                if (ec == beast::error::timeout && (parser.got_some() || buffer.size() > 0))
                    http_metrics().refused(HttpRefusal::header_timeout);
                if (ec == http::error::header_limit) http_metrics().refused(HttpRefusal::head_too_large);
            }
            if (ec == http::error::header_limit) {
                const Request partial = answered_part(parser);
                co_await write_response(stream, partial, 431, {}, {}, {}, ctx);
                break;
            }
            registration.idle(false);
            // body_limit here: a Content-Length over the limit, known from the head.
            if (auto refusal = refusal_for(ec, max_body)) {
                const Request partial = answered_part(parser);
                co_await refuse_and_close(stream, partial, *refusal, ctx);
                break;
            }
            if (ec) break;  // closed or timed out
        }
        // HTTP/1.0 has no 100 Continue: a server must ignore the expectation (RFC 9110 §10.1.1).
        if (parser.get().version() >= 11 && parser.get()[http::field::expect] == "100-continue") {
            // A body for another path would only be read to be refused: refuse it unread.
            if (!targets_endpoint(std::string_view(parser.get().target().data(), parser.get().target().size()), ctx)) {
                // Named: GCC 12 frees a braced temporary inside a co_await expression twice.
                const ReadRefusal not_found{404, kServerError, "Not Found"};
                const Request partial = answered_part(parser);
                co_await refuse_and_close(stream, partial, not_found, ctx);
                break;
            }
            static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
            stream.expires_after(ctx.options.write_timeout);
            co_await asio::async_write(stream, asio::buffer(kContinue), use_tuple);
        }
        boost::system::error_code ec;
        parse_buffered_body(parser, buffer, ec);
        if (!ec && !parser.is_done()) {
            stream.expires_after(ctx.options.body_timeout);
            std::tie(ec, std::ignore) = co_await http::async_read(stream, buffer, parser, use_tuple);
            stream.expires_never();
            if (ec == beast::error::timeout && metrics::enabled()) http_metrics().refused(HttpRefusal::body_timeout);
        }
        if (auto refusal = refusal_for(ec, max_body)) {
            const Request partial = answered_part(parser);
            co_await refuse_and_close(stream, partial, *refusal, ctx);
            break;
        }
        if (ec) break;

        Request request = parser.release();
        if (metrics::enabled()) http_metrics().bytes_in.add(request.body().size());
        bool keep_alive = false;
        try {
            // Most requests are answered without waiting: written from here, they cost no
            // coroutine frame (ADR 0012).
            auto step = begin_request(request, *peer, ctx);
            if (const auto* answer = std::get_if<WholeResponse>(&step)) {
                auto [failure, n] = co_await start_write(stream, *answer, ctx);
                keep_alive = answer->written(failure, n);
            } else {
                keep_alive = co_await finish_request(stream, request, std::move(step), ctx);
            }
        } catch (const std::exception& e) {
            log().error("HTTP request failed: {}", e.what());
        }
        if (!keep_alive || !request.keep_alive()) break;
        first = false;
    }
    if (stream.is_tls() && stream.socket().is_open()) {
        stream.expires_after(std::chrono::seconds(1));  // close_notify, without waiting long for the client's
        co_await stream.tls().async_shutdown(use_tuple);
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    stream.socket().close(ignored);
}

}  // namespace mcp::detail
