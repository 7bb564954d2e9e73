#pragma once
// The library's one HTTP/1.1 client: Beast and coroutines on an io_context it is given, a bounded
// keep-alive pool per origin, TLS, proxies, deadlines, cancellation, and bodies read whole under a
// limit or streamed as they arrive. Its operations may be awaited from any executor: they run on
// the client's strand and resume the caller on its own.
#include "net/http_message.hpp"
#include "net/http_stream.hpp"

#include <mcp/net/http_options.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>

namespace boost::asio {
class io_context;
}

namespace mcp::net {

struct ClientCore;

class HttpClient {
public:
    // Throws std::invalid_argument for options it cannot use (a CA or certificate file, a proxy URL).
    HttpClient(boost::asio::io_context& io, HttpClientOptions options);
    // Requests and streams in flight keep what they need; kept connections close.
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // The response with its whole body (at most max_body_bytes). Any status is returned; throws
    // HttpError when there is no complete response.
    boost::asio::awaitable<HttpResponse> fetch(HttpRequest request);
    // The response's head; its body is read from the stream as it arrives.
    boost::asio::awaitable<HttpStream> open(HttpRequest request);

private:
    std::shared_ptr<ClientCore> core_;
};

}  // namespace mcp::net
