#pragma once
// A request the client sends, and a response read whole.
#include "net/http_headers.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <stop_token>
#include <string>

namespace mcp::net {

struct HttpRequest {
    std::string method = "GET";
    std::string url;  // http:// or https://
    // Any fields (Authorization, Accept...). Host, Content-Length and Transfer-Encoding are the
    // client's; User-Agent is added unless set here.
    HttpHeaders headers;
    std::string body;
    // Instead of the client's request_timeout and, for a whole read, max_body_bytes.
    std::optional<std::chrono::milliseconds> timeout;
    std::optional<std::size_t> max_body_bytes;
    // A stop request cancels the request, or its response's stream, from any thread.
    std::stop_token stop;
};

struct HttpResponse {
    unsigned status = 0;
    HttpHeaders headers;
    std::string body;
};

}  // namespace mcp::net
