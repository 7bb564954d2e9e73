#pragma once
// One connection to Redis or a sentinel: plain TCP, or TLS over it (rediss://). An Asio stream, so
// that reads, writes and timeouts are written once for both.
#include "store/redis/redis_url.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>

#include <memory>
#include <optional>
#include <string>

namespace mcp::detail {

// What every connection of one store shares: plain TCP when `context` is null.
struct RedisTls {
    std::shared_ptr<boost::asio::ssl::context> context;
    std::string server_name;  // instead of each host's own, for SNI and the certificate check

    // Throws std::invalid_argument naming a file that cannot be used.
    static RedisTls from(const std::optional<RedisUrl::Tls>& url);
};

class RedisStream {
public:
    using executor_type = boost::asio::ip::tcp::socket::executor_type;

    RedisStream(boost::asio::io_context& ioc, const RedisTls& tls);

    boost::asio::ip::tcp::socket& socket() { return tls_ ? tls_->next_layer() : plain_; }
    executor_type get_executor() { return socket().get_executor(); }
    bool uses_tls() const { return tls_.has_value(); }
    // Before the handshake: SNI, and the name or address the server's certificate must hold
    // (`host`, unless the store names another). Returns what is wrong, or nothing.
    std::optional<std::string> set_server_name(const std::string& host);
    // The TLS handshake's failure, in words a user can act on (the certificate check's verdict
    // when there is one).
    std::string describe_failure(const boost::system::error_code& ec);
    void close();

    template <class Token>
    auto async_handshake(Token&& token) {
        return tls_->async_handshake(boost::asio::ssl::stream_base::client, std::forward<Token>(token));
    }

    template <class Buffers, class Token>
    auto async_read_some(const Buffers& buffers, Token&& token) {
        return initiate(buffers, std::forward<Token>(token), [](auto& stream, const Buffers& b, auto handler) {
            stream.async_read_some(b, std::move(handler));
        });
    }

    template <class Buffers, class Token>
    auto async_write_some(const Buffers& buffers, Token&& token) {
        return initiate(buffers, std::forward<Token>(token), [](auto& stream, const Buffers& b, auto handler) {
            stream.async_write_some(b, std::move(handler));
        });
    }

private:
    RedisTls tls_setup_;                  // its context outlives the stream that uses it
    boost::asio::ip::tcp::socket plain_;  // unused over TLS
    std::optional<boost::asio::ssl::stream<boost::asio::ip::tcp::socket>> tls_;

    // Runs `op` on the TLS stream, or on the plain socket.
    template <class Buffers, class Token, class Op>
    auto initiate(const Buffers& buffers, Token&& token, Op op) {
        return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
            [this, op](auto handler, const Buffers& b) {
                if (tls_)
                    op(*tls_, b, std::move(handler));
                else
                    op(plain_, b, std::move(handler));
            },
            token, buffers);
    }
};

}  // namespace mcp::detail
