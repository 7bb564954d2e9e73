#pragma once
// One client connection to an origin, direct or through a proxy (a CONNECT tunnel for https),
// plain or TLS, used on the client's strand. Its operations fail with a typed HttpError. A
// watchdog closes it when the time set by expires_at runs out; cancel() closes it at once.
#include "net/url.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

namespace boost::asio::ssl {
class context;
}

namespace mcp::net {

class Connection {
public:
    using Clock = std::chrono::steady_clock;

    // `tls` serves https targets; `verify`: check the server's certificate and name.
    Connection(const boost::asio::any_io_executor& strand, std::shared_ptr<boost::asio::ssl::context> tls, bool verify);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Resolves, connects, opens the proxy's tunnel and does the TLS handshake as `target` and
    // `proxy` need. Throws HttpError: resolve, connect, proxy, tls, timeout, cancelled.
    boost::asio::awaitable<void> connect(const Url& target, const Url* proxy, std::size_t max_header_bytes);
    boost::asio::awaitable<void> write(std::string_view head, std::string_view body);
    // What has arrived, at least one byte; 0 once the peer closed the connection.
    boost::asio::awaitable<std::size_t> read_some(std::span<char> into);

    // An operation still running at `deadline` fails with a timeout, and the connection closes.
    void expires_at(Clock::time_point deadline);
    void expires_never();
    // Closes the connection; what runs or comes next fails as cancelled.
    void cancel();
    // Open, not timed out, and the peer has neither closed it nor sent anything unasked: it may
    // carry another request.
    bool usable();

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;  // shared with the watchdog's handler, which holds it weakly
};

}  // namespace mcp::net
