// The HTTP client (net::HttpClient): the input is the raw bytes a server answers a GET with, on a
// loopback TCP connection; the server then closes its sending side. The client reads them twice,
// on two connections: whole (fetch) and streamed (next_chunk), under the same small limits. Each
// read must end, in a response or an HttpError, and the two must agree: both fail, or both give the
// same status and body. Anything else out of the client, a hang (-timeout) or growth
// (-rss_limit_mb) is a finding.
#include "fuzz_check.hpp"
#include "loopback.hpp"
#include "net/http_client.hpp"
#include "net/http_error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

namespace asio = boost::asio;
namespace net = mcp::net;
using tcp = asio::ip::tcp;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

constexpr std::size_t kMaxBody = 16 * 1024;

// Two connections, each answered with `response`: reads the request's head, writes the bytes,
// closes its sending side, and waits for the client to close the connection.
asio::awaitable<void> serve_twice(tcp::acceptor& acceptor, std::string_view response) {
    for (int connection = 0; connection < 2; ++connection) {
        auto [accept_ec, socket] = co_await acceptor.async_accept(use_tuple);
        if (accept_ec) co_return;
        std::string request;
        auto [read_ec, head] =
            co_await asio::async_read_until(socket, asio::dynamic_buffer(request), "\r\n\r\n", use_tuple);
        if (!read_ec) co_await asio::async_write(socket, asio::buffer(response), use_tuple);
        boost::system::error_code ignored;
        socket.shutdown(tcp::socket::shutdown_send, ignored);
        std::array<char, 4096> sink;
        for (;;) {
            auto [ec, n] = co_await socket.async_read_some(asio::buffer(sink), use_tuple);
            if (ec) break;
        }
        socket.set_option(asio::socket_base::linger(true, 0), ignored);  // no TIME_WAIT left behind
    }
}

struct Read {
    bool ok = false;
    unsigned status = 0;
    std::string body;
};

net::HttpRequest get(std::uint16_t port) {
    net::HttpRequest request;
    request.url = "http://127.0.0.1:" + std::to_string(port) + "/";
    return request;
}

asio::awaitable<void> read_twice(asio::io_context& io, std::uint16_t port, Read& whole, Read& streamed) {
    net::HttpClientOptions options;
    options.proxy.from_environment = false;
    options.tls.verify = false;  // no CA bundle to load per input
    options.request_timeout = std::chrono::seconds(2);
    options.max_header_bytes = 4096;
    options.max_body_bytes = kMaxBody;
    net::HttpClient client(io, options);
    try {
        auto response = co_await client.fetch(get(port));
        whole = {true, response.status, std::move(response.body)};
        FUZZ_CHECK(whole.body.size() <= kMaxBody);
    } catch (const net::HttpError&) {}
    try {
        auto stream = co_await client.open(get(port));
        const auto status = stream.status();
        auto body = co_await stream.read_all(kMaxBody);
        streamed = {true, status, std::move(body)};
    } catch (const net::HttpError&) {}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto& lo = loopback();
    const std::string_view response(reinterpret_cast<const char*>(data), size);
    Read whole;
    Read streamed;
    asio::co_spawn(lo.io, serve_twice(lo.acceptor, response), asio::detached);
    asio::co_spawn(lo.io, read_twice(lo.io, lo.acceptor.local_endpoint().port(), whole, streamed), asio::detached);
    lo.io.restart();
    lo.io.run();
    FUZZ_CHECK(whole.ok == streamed.ok);
    if (whole.ok) {
        FUZZ_CHECK(whole.status == streamed.status);
        FUZZ_CHECK(whole.body == streamed.body);
    }
    return 0;
}
