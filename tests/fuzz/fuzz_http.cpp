// The Streamable HTTP endpoint: the input is the raw bytes a client writes on one connection (one
// or several pipelined requests, chunked bodies, Expect: 100-continue...), served by the real
// connection code (transport/http/connection.cpp) with the real limits, on a loopback TCP
// connection, for the demo's registry. The client reads everything the server writes, closes its
// sending side when its bytes are out, and closes the connection once nothing has come or gone for
// kQuiet, or after kPatience in all (a client that goes away mid-stream: an SSE stream's keep-alive
// comments would otherwise hold it forever). The connection must then end: an exception out of
// it, a hang (-timeout) or growth (-rss_limit_mb) is a finding. What the server wrote must then
// parse as HTTP responses, one per request of the input in order (Beast's response parser, strict):
// a response to HEAD ends at its head, a response to HTTP/1.0 is never chunked, a 100 Continue
// goes to HTTP/1.1 only, and every other response to HTTP/1.1 says where its body ends.
// An input that contains "@session" gets the Mcp-Session-Id of a 2025-11-25 session initialized
// just before on a connection of its own, so that session requests get past the session lookup.
// Every input gets a server of its own, so that a finding replays from its input alone.
#include <mcp/server/server.hpp>
#include <mcp/transport/http.hpp>

#include "demo_server.hpp"
#include "fuzz_check.hpp"
#include "loopback.hpp"
#include "transport/http/http_context.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// The client closes the connection after this long without a byte in either direction.
constexpr std::chrono::milliseconds kQuiet{50};
// ...and after this long in all, however busy: a listen stream with a request pipelined behind it
// never ends by itself, and its keep-alive comments (every 20 ms here) never let the client be quiet.
constexpr std::chrono::milliseconds kPatience{2000};
// What the client keeps of the server's answer (to find a header in it).
constexpr std::size_t kKeptBytes = 64 * 1024;

const mcp::HttpOptions& http_options() {
    static const mcp::HttpOptions options = [] {
        mcp::HttpOptions o;
        // An SSE stream notices a client that closed with a pipelined request unread only when a
        // keep-alive comment fails to go out: sooner than the default 15 s.
        o.keepalive_interval = std::chrono::milliseconds(20);
        return o;
    }();
    return options;
}

struct Client {
    explicit Client(asio::io_context& io) : socket(io) {}
    tcp::socket socket;
    std::string received;
    Clock::time_point last_heard = Clock::now();  // the last byte received, or sent
    bool sent = false;                            // the write is over (every byte out, or failed)
    bool finished = false;                        // the read is over: the server closed, or the client did
};

asio::awaitable<void> send_all(Client& client, std::string_view bytes) {
    co_await asio::async_write(client.socket, asio::buffer(bytes), use_tuple);
    boost::system::error_code ignored;
    client.socket.shutdown(tcp::socket::shutdown_send, ignored);
    client.last_heard = Clock::now();
    client.sent = true;
}

asio::awaitable<void> receive_all(Client& client) {
    std::array<char, 16 * 1024> buffer;
    while (true) {
        auto [ec, n] = co_await client.socket.async_read_some(asio::buffer(buffer), use_tuple);
        if (ec) break;
        client.last_heard = Clock::now();
        client.received.append(buffer.data(), std::min(n, kKeptBytes - std::min(kKeptBytes, client.received.size())));
    }
    client.finished = true;
}

// Connects `client` to the loopback acceptor, and accepts into `accepted`, on the I/O context: a
// blocking connect() fails with EINTR when libFuzzer's -timeout timer signal lands during the
// handshake (a false finding of a campaign), where Asio's asynchronous operations retry.
void connect_through_loop(Loopback& loop, tcp::socket& client, tcp::socket& accepted) {
    int pending = 2;
    const auto done = [&pending](const boost::system::error_code& ec) {
        if (ec) throw boost::system::system_error(ec);  // out of io.run_one(): loopback broken
        --pending;
    };
    loop.acceptor.async_accept(accepted, done);
    client.async_connect(loop.acceptor.local_endpoint(), done);
    loop.io.restart();
    while (pending > 0) loop.io.run_one();
}

// Writes `bytes` on a new connection served by serve_connection; returns what the server wrote
// (the first kKeptBytes of it) once the connection is over.
std::string converse(mcp::detail::HttpContext& ctx, std::string_view bytes) {
    auto& loop = loopback();
    Client client(loop.io);
    tcp::socket accepted(loop.io);
    connect_through_loop(loop, client.socket, accepted);
    bool served = false;
    ++ctx.connections;  // as the acceptor does; serve_connection counts it down
    asio::co_spawn(loop.io, mcp::detail::serve_connection(std::move(accepted), ctx),
                   [&served](const std::exception_ptr& failure) {
                       if (failure) std::rethrow_exception(failure);  // out of io.run(): a finding
                       served = true;
                   });
    asio::co_spawn(loop.io, send_all(client, bytes), asio::detached);
    asio::co_spawn(loop.io, receive_all(client), asio::detached);

    auto work = asio::make_work_guard(loop.io);  // calls on the handler pool post their answers
    loop.io.restart();
    const auto give_up_at = Clock::now() + kPatience;
    // Until the connection and both of the client's operations are over: they refer to `client`.
    while (!served || !client.finished || !client.sent) {
        loop.io.run_one_for(std::chrono::milliseconds(10));
        const auto now = Clock::now();
        if (!client.finished && (now - client.last_heard > kQuiet || now > give_up_at)) {
            boost::system::error_code ignored;
            client.socket.close(ignored);  // the client goes away
        }
    }
    return std::move(client.received);
}

std::string header_value(std::string_view response, std::string_view name) {
    const auto head = response.substr(0, response.find("\r\n\r\n"));
    std::size_t at = 0;
    while ((at = head.find("\r\n", at)) != std::string_view::npos) {
        at += 2;
        const auto line = head.substr(at, head.find("\r\n", at) - at);
        if (line.size() <= name.size() || line[name.size()] != ':') continue;
        if (!std::equal(name.begin(), name.end(), line.begin(),
                        [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
            continue;
        auto value = line.substr(name.size() + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return std::string(value);
    }
    return {};
}

// Feeds `bytes` to `parser` until it is done, fails or wants more; returns the bytes it used. The
// parser sees at most `window` bytes at a time, as the server's does its read buffer: a head,
// trailer or chunk line that does not fit is where the server stops reading (and Beast throws
// on a field of 64 KiB).
template <class Parser>
std::size_t feed(Parser& parser, std::string_view bytes, boost::system::error_code& ec,
                 std::size_t window = std::string_view::npos) {
    std::size_t used = 0;
    while (!parser.is_done() && used < bytes.size()) {
        const auto n = parser.put(asio::buffer(bytes.data() + used, std::min(window, bytes.size() - used)), ec);
        used += n;
        if (ec == http::error::need_more && n > 0) ec = {};
        if (ec || n == 0) break;
    }
    if (!ec && !parser.is_done()) ec = http::error::need_more;
    return used;
}

// What a request of the input asks of its response's framing: no body after the head (HEAD), no
// chunked body (HTTP/1.0).
struct Asked {
    bool head;
    unsigned version;
};

// The requests of the input, in order, as far as a parser with the server's limits reads them;
// one whose start line was read but not the rest is the last (the server answers it, if at all,
// with an error and closes).
std::vector<Asked> requests_of(std::string_view input, std::size_t max_body) {
    std::vector<Asked> asked;
    while (!input.empty()) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(http_options().max_header_bytes));
        parser.body_limit(max_body);
        parser.eager(true);
        boost::system::error_code ec;
        const auto used = feed(parser, input, ec, mcp::detail::read_buffer_limit(http_options()));
        asked.push_back({parser.get().method() == http::verb::head, parser.get().version()});
        if (ec) break;
        input.remove_prefix(used);
    }
    return asked;
}

// Whether a response says its body is chunked: its Transfer-Encoding field, read as written (Beast's
// parser does not take chunked coding from an HTTP/1.0 response, which is the very mistake looked for).
bool says_chunked(const http::response_parser<http::string_body>& parser) {
    const auto coding = parser.get()[http::field::transfer_encoding];
    return std::string_view(coding.data(), coding.size()).find("chunked") != std::string_view::npos;
}

// Checks what the server wrote, response by response, against what the requests asked.
// `received` may end anywhere (the client keeps kKeptBytes, or left mid-stream).
void check_responses(std::string_view received, const std::vector<Asked>& asked) {
    std::size_t index = 0;
    while (!received.empty() && index < asked.size()) {
        http::response_parser<http::string_body> parser;
        parser.header_limit(64 * 1024);
        parser.body_limit(boost::none);
        parser.eager(true);
        if (asked[index].head) parser.skip(true);
        boost::system::error_code ec;
        const auto used = feed(parser, received, ec);
        // The last response may be cut short, or have a body that ends with the connection.
        FUZZ_CHECK(!ec || ec == http::error::need_more);  // else bytes that are no response: a body
                                                          // after a HEAD answer, a broken head
        if (!parser.is_header_done()) return;
        const unsigned status = parser.get().result_int();
        if (status / 100 == 1) {
            FUZZ_CHECK(asked[index].version >= 11);  // no interim response to HTTP/1.0
            if (ec) return;
            received.remove_prefix(used);
            continue;
        }
        FUZZ_CHECK(asked[index].version >= 11 || !says_chunked(parser));
        const bool bodiless = asked[index].head || status == 204 || status == 304;
        FUZZ_CHECK(asked[index].version < 11 || bodiless || parser.chunked() || parser.content_length());
        if (ec) return;
        received.remove_prefix(used);
        ++index;
    }
    // Every request answered: nothing may follow (a body after the last HEAD answer).
    FUZZ_CHECK(received.empty());
}

constexpr std::string_view kInitialize =
    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    "Accept: application/json, text/event-stream\r\nContent-Length: 165\r\nConnection: close\r\n\r\n"
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{"elicitation":{}},"clientInfo":{"name":"fuzz","version":"1"}}})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string input(reinterpret_cast<const char*>(data), size);
    auto server = fuzzing::make_demo_server();
    {
        mcp::detail::HttpContext ctx(*server, http_options());
        if (input.find("@session") != std::string::npos) {
            const auto id = header_value(converse(ctx, kInitialize), "Mcp-Session-Id");
            for (auto at = input.find("@session"); at != std::string::npos && !id.empty();
                 at = input.find("@session", at + id.size()))
                input.replace(at, std::string_view("@session").size(), id);
        }
        const auto received = converse(ctx, input);
        check_responses(received, requests_of(input, server->options().limits.max_message_bytes));
    }
    server->cancel_all();
    server.reset();  // shuts down: waits for every call still running
    return 0;
}
