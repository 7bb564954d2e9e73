#pragma once
// A response whose body is read as it arrives (an SSE stream, a large download). It holds its
// connection until the body ends or it is cancelled or destroyed; a connection whose body was not
// read to its end is closed, never reused.
#include "net/http_headers.hpp"

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace mcp::net {

class Exchange;

class HttpStream {
public:
    explicit HttpStream(std::shared_ptr<Exchange> exchange);
    HttpStream(HttpStream&& other) noexcept = default;
    HttpStream& operator=(HttpStream&& other) noexcept;
    HttpStream(const HttpStream&) = delete;
    HttpStream& operator=(const HttpStream&) = delete;
    ~HttpStream();

    unsigned status() const;
    const HttpHeaders& headers() const;

    // The body bytes that arrived since the last call, chunked coding removed, at least one;
    // nothing once the body has ended. Throws HttpError: connection_closed, timeout (the
    // client's stream_idle_timeout), cancelled, malformed_response. One call at a time.
    boost::asio::awaitable<std::optional<std::string>> next_chunk();
    // The rest of the body; HttpError (body_too_large) beyond `max_bytes`.
    boost::asio::awaitable<std::string> read_all(std::size_t max_bytes);
    // From any thread: closes the connection at once; a pending or later next_chunk fails with
    // HttpError (cancelled).
    void cancel();

private:
    void release();

    std::shared_ptr<Exchange> exchange_;
};

}  // namespace mcp::net
