#pragma once
// One connection's byte stream: plain TCP, or TLS over it. The transport's coroutines take either;
// reads and writes go through TLS when there is TLS, timeouts and the socket are the TCP layer's.
#include "transport/http/timed_socket.hpp"

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <memory>
#include <optional>
#include <utility>

namespace mcp::detail {

class HttpStream {
public:
    using executor_type = TimedSocket::executor_type;

    explicit HttpStream(boost::asio::ip::tcp::socket socket) : plain_(std::in_place, std::move(socket)) {}
    // TLS with `context`, which the stream keeps for its life (a reload makes a new one).
    HttpStream(boost::asio::ip::tcp::socket socket, std::shared_ptr<boost::asio::ssl::context> context)
        : context_(std::move(context)), tls_(std::in_place, std::move(socket), *context_) {}

    executor_type get_executor() { return tcp().get_executor(); }
    TimedSocket& tcp() { return tls_ ? tls_->next_layer() : *plain_; }
    boost::asio::ip::tcp::socket& socket() { return tcp().socket(); }
    template <class Duration>
    void expires_after(Duration d) {
        tcp().expires_after(d);
    }
    void expires_never() { tcp().expires_never(); }
    bool is_tls() const { return tls_.has_value(); }
    boost::beast::ssl_stream<TimedSocket>& tls() { return *tls_; }

    // Both return the same type for the same token, so either layer serves any caller.
    template <class Buffers, class Token>
    auto async_read_some(const Buffers& buffers, Token&& token) {
        if (tls_) return tls_->async_read_some(buffers, std::forward<Token>(token));
        return plain_->async_read_some(buffers, std::forward<Token>(token));
    }
    template <class Buffers, class Token>
    auto async_write_some(const Buffers& buffers, Token&& token) {
        if (tls_) return tls_->async_write_some(buffers, std::forward<Token>(token));
        return plain_->async_write_some(buffers, std::forward<Token>(token));
    }

private:
    std::shared_ptr<boost::asio::ssl::context> context_;
    std::optional<TimedSocket> plain_;
    std::optional<boost::beast::ssl_stream<TimedSocket>> tls_;
};

}  // namespace mcp::detail
