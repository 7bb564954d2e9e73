#pragma once
// One HTTP/1.x response read from bytes as they arrive: the status line and fields under a bound,
// then the body, chunked coding removed, handed out in pieces as it comes. Interim responses
// (1xx) are passed over. Beast's parser does the parsing.
#include "net/http_headers.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::net {

struct ResponseLimits {
    std::size_t max_header_bytes = 64 * 1024;
    std::optional<std::uint64_t> max_body_bytes;  // nothing: unbounded (a stream, read piece by piece)
    bool no_body = false;                         // the answer to HEAD or CONNECT
};

class ResponseReader {
public:
    explicit ResponseReader(ResponseLimits limits);
    ~ResponseReader();
    ResponseReader(const ResponseReader&) = delete;
    ResponseReader& operator=(const ResponseReader&) = delete;

    // Parses what it can of `bytes` and keeps the rest for the next call. Throws HttpError:
    // malformed_response, headers_too_large, body_too_large.
    void feed(std::string_view bytes);
    // The connection ended. Throws HttpError (connection_closed) unless the response was complete
    // or its body runs to the end of the connection.
    void feed_eof();

    bool head_done() const;
    bool done() const;
    // Once done: the connection may carry another request (keep-alive, and nothing came after).
    bool reusable() const;
    unsigned status() const { return status_; }
    const HttpHeaders& headers() const { return headers_; }
    // The body bytes parsed since the last call.
    std::string take_body() { return std::exchange(body_, {}); }

private:
    class Parser;
    void restart();

    ResponseLimits limits_;
    std::unique_ptr<Parser> parser_;
    std::string input_;  // bytes fed but not yet parsed
    unsigned status_ = 0;
    HttpHeaders headers_;
    std::string body_;
};

}  // namespace mcp::net
