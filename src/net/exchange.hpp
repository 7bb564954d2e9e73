#pragma once
// One request and its response: a place in the origin's pool, a connection (kept or new), the
// request sent and the response's head read under the request's deadline; then the body, piece
// by piece, under the deadline (a whole read) or the stream's idle timeout. Runs on the client's
// strand; request_cancel() may be called from any thread.
#include "net/client_core.hpp"
#include "net/http_error.hpp"
#include "net/http_message.hpp"
#include "net/response_reader.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

namespace mcp::net {

class Exchange : public std::enable_shared_from_this<Exchange> {
public:
    enum class Body { whole, streamed };

    Exchange(std::shared_ptr<ClientCore> core, HttpRequest request, Body body);
    ~Exchange();
    Exchange(const Exchange&) = delete;
    Exchange& operator=(const Exchange&) = delete;

    // Sends the request and reads the response's head. Throws HttpError.
    boost::asio::awaitable<void> start();
    // The next body bytes; nothing once the body has ended (the connection then goes back to the
    // pool when it can carry another request). Throws HttpError, and the same one again after.
    boost::asio::awaitable<std::optional<std::string>> next_chunk();
    // The rest of the body; HttpError (body_too_large) beyond `max_bytes`.
    boost::asio::awaitable<std::string> read_all(std::size_t max_bytes);

    unsigned status() const { return reader_->status(); }
    const HttpHeaders& headers() const { return reader_->headers(); }

    // From any thread: closes the connection, or leaves the queue; what runs or comes next
    // fails as cancelled.
    void request_cancel();
    // On the strand: closes the connection unless the body was read to its end, and gives the
    // place back.
    void abandon();
    const boost::asio::any_io_executor& strand() const { return core_->strand; }

private:
    boost::asio::awaitable<void> wait_for_place();
    boost::asio::awaitable<void> connect();
    boost::asio::awaitable<void> send_and_read_head();
    boost::asio::awaitable<void> read_more();
    void cancel();
    void finish();
    ResponseLimits limits() const;

    std::shared_ptr<ClientCore> core_;  // first: the pool outlives the lease
    HttpRequest request_;
    Body body_;
    Url url_;
    const Url* proxy_ = nullptr;
    std::string head_;
    Connection::Clock::time_point deadline_;
    boost::asio::steady_timer queue_wake_;
    std::optional<ConnectionPool::Lease> lease_;
    std::unique_ptr<Connection> connection_;
    std::unique_ptr<ResponseReader> reader_;
    std::size_t bytes_received_ = 0;
    std::array<char, 16 * 1024> buffer_;
    bool cancelled_ = false;
    std::optional<HttpError> failure_;
    std::optional<std::stop_callback<std::function<void()>>> on_stop_;
};

}  // namespace mcp::net
