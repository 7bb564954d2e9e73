#include "net/connection.hpp"

#include "net/http_error.hpp"
#include "net/proxy.hpp"
#include "net/response_reader.hpp"
#include "net/tls.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <array>
#include <string>
#include <tuple>

namespace mcp::net {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

bool peer_closed(const error_code& ec) {
    // A TLS peer that closes without close_notify: the response reader decides whether that cut
    // the response short.
    return ec == asio::error::eof || ec == ssl::error::stream_truncated;
}

}  // namespace

struct Connection::Impl : std::enable_shared_from_this<Impl> {
    Impl(const asio::any_io_executor& strand, std::shared_ptr<ssl::context> context, bool verify_peer)
        : socket(strand), resolver(strand), watchdog(strand), tls_context(std::move(context)), verify(verify_peer) {}

    tcp::socket socket;
    tcp::resolver resolver;
    asio::steady_timer watchdog;
    std::shared_ptr<ssl::context> tls_context;
    std::unique_ptr<ssl::stream<tcp::socket&>> tls;  // over `socket` once the handshake starts
    bool verify;
    bool timed_out = false;
    bool cancelled = false;
    unsigned watch = 0;  // the watchdog's current arming: a stale expiry does nothing

    void shut() {
        error_code ignored;
        resolver.cancel();
        socket.close(ignored);
    }

    // What a failed operation means, given why it may have been cut short.
    HttpError failure(const error_code& ec, HttpErrorKind kind, const std::string& what) const {
        if (timed_out) return {HttpErrorKind::timeout, what + ": timed out"};
        // Aborted without cancel(): the awaiting coroutine's own cancellation slot.
        if (cancelled || ec == asio::error::operation_aborted) return {HttpErrorKind::cancelled, what + ": cancelled"};
        return {kind, what + ": " + ec.message()};
    }

    // The certificate check's own reason ("hostname mismatch"), which the handshake's error hides.
    std::string verify_result() const {
        const auto result = SSL_get_verify_result(tls->native_handle());
        return result == X509_V_OK ? std::string() : std::string(" (") + X509_verify_cert_error_string(result) + ")";
    }

    asio::awaitable<void> open_tunnel(const Url& target, const Url& proxy, std::size_t max_header_bytes) {
        const auto request = "CONNECT " + target.authority() + " HTTP/1.1\r\nHost: " + target.authority() + "\r\n" +
                             proxy_authorization(proxy) + "\r\n";
        auto [write_ec, written] = co_await asio::async_write(socket, asio::buffer(request), use_tuple);
        if (write_ec) throw failure(write_ec, HttpErrorKind::proxy, "asking the proxy " + proxy.authority());
        ResponseReader answer({.max_header_bytes = max_header_bytes, .max_body_bytes = 0, .no_body = true});
        std::array<char, 4096> buffer;
        while (!answer.head_done()) {
            auto [ec, n] = co_await socket.async_read_some(asio::buffer(buffer), use_tuple);
            if (ec && !peer_closed(ec)) throw failure(ec, HttpErrorKind::proxy, "the proxy " + proxy.authority());
            try {
                if (ec) {
                    answer.feed_eof();
                } else {
                    answer.feed({buffer.data(), n});
                }
            } catch (const HttpError& e) {
                throw HttpError(HttpErrorKind::proxy, "the proxy " + proxy.authority() + ": " + e.what());
            }
        }
        if (answer.status() / 100 != 2) {
            throw HttpError(HttpErrorKind::proxy, "the proxy " + proxy.authority() + " answered " +
                                                      std::to_string(answer.status()) + " to CONNECT " +
                                                      target.authority());
        }
    }
};

Connection::Connection(const asio::any_io_executor& strand, std::shared_ptr<ssl::context> tls, bool verify)
    : impl_(std::make_shared<Impl>(strand, std::move(tls), verify)) {}

Connection::~Connection() { impl_->shut(); }

asio::awaitable<void> Connection::connect(const Url& target, const Url* proxy, std::size_t max_header_bytes) {
    auto& c = *impl_;
    const Url& hop = proxy != nullptr ? *proxy : target;
    auto [resolve_ec, endpoints] = co_await c.resolver.async_resolve(hop.host, std::to_string(hop.port), use_tuple);
    if (resolve_ec) throw c.failure(resolve_ec, HttpErrorKind::resolve, "resolving " + hop.host);
    auto [connect_ec, endpoint] = co_await asio::async_connect(c.socket, endpoints, use_tuple);
    if (connect_ec) throw c.failure(connect_ec, HttpErrorKind::connect, "connecting to " + hop.authority());
    error_code ignored;
    c.socket.set_option(tcp::no_delay(true), ignored);
    if (!target.tls) co_return;
    if (proxy != nullptr) co_await c.open_tunnel(target, *proxy, max_header_bytes);
    c.tls = std::make_unique<ssl::stream<tcp::socket&>>(c.socket, *c.tls_context);
    set_server_name(c.tls->native_handle(), target.host, c.verify);
    auto [handshake_ec] = co_await c.tls->async_handshake(ssl::stream_base::client, use_tuple);
    if (handshake_ec) {
        throw c.failure(handshake_ec, HttpErrorKind::tls, "TLS with " + target.authority() + c.verify_result());
    }
}

asio::awaitable<void> Connection::write(std::string_view head, std::string_view body) {
    auto& c = *impl_;
    const std::array<asio::const_buffer, 2> buffers{asio::buffer(head), asio::buffer(body)};
    error_code ec;
    if (c.tls) {
        std::tie(ec, std::ignore) = co_await asio::async_write(*c.tls, buffers, use_tuple);
    } else {
        std::tie(ec, std::ignore) = co_await asio::async_write(c.socket, buffers, use_tuple);
    }
    if (ec) throw c.failure(ec, HttpErrorKind::connection_closed, "sending the request");
}

asio::awaitable<std::size_t> Connection::read_some(std::span<char> into) {
    auto& c = *impl_;
    error_code ec;
    std::size_t n = 0;
    if (c.tls) {
        std::tie(ec, n) = co_await c.tls->async_read_some(asio::buffer(into.data(), into.size()), use_tuple);
    } else {
        std::tie(ec, n) = co_await c.socket.async_read_some(asio::buffer(into.data(), into.size()), use_tuple);
    }
    if (ec && (c.cancelled || c.timed_out || !peer_closed(ec))) {
        throw c.failure(ec, HttpErrorKind::connection_closed, "reading the response");
    }
    co_return ec ? 0 : n;
}

void Connection::expires_at(Clock::time_point deadline) {
    auto& c = *impl_;
    c.watchdog.expires_at(deadline);
    c.watchdog.async_wait([weak = std::weak_ptr<Impl>(impl_), watch = ++c.watch](const error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || self->watch != watch) return;
        self->timed_out = true;
        self->shut();
    });
}

void Connection::expires_never() {
    ++impl_->watch;
    impl_->watchdog.cancel();
}

void Connection::cancel() {
    impl_->cancelled = true;
    impl_->shut();
}

bool Connection::usable() {
    auto& c = *impl_;
    if (c.timed_out || c.cancelled || !c.socket.is_open()) return false;
    error_code ec;
    char byte = 0;
    c.socket.non_blocking(true, ec);
    if (!ec) c.socket.receive(asio::buffer(&byte, 1), tcp::socket::message_peek, ec);
    const bool quiet = ec == asio::error::would_block;
    error_code ignored;
    c.socket.non_blocking(false, ignored);
    return quiet;
}

}  // namespace mcp::net
