#include "store/redis/redis_connection.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace mcp::detail {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// A Redis host that crashed or was cut off sends no FIN or RST: without these, the subscription
// connection (which only reads) would wait on it forever and miss every later wake-up. Probes
// after 10 s of silence, every 5 s, 3 unanswered end it; data unacknowledged for 20 s ends it too.
void detect_a_vanished_peer(tcp::socket& s) {
    s.set_option(tcp::socket::keep_alive(true));
    const int fd = s.native_handle();
    const int idle = 10;
    const int interval = 5;
    const int probes = 3;
    const unsigned user_timeout_ms = 20000;
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
    ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
}

// Writes, then reads until `want` replies are parsed; false on any failure.
asio::awaitable<bool> talk(RedisStream& s, RespParser& parser, const std::string& bytes, std::size_t want,
                           std::vector<RespValue>& replies) {
    auto [wec, n] = co_await asio::async_write(s, asio::buffer(bytes), use_tuple);
    if (wec) co_return false;
    char buffer[4096];
    while (true) {
        try {
            while (replies.size() < want) {
                auto reply = parser.next();
                if (!reply) break;
                replies.push_back(std::move(*reply));
            }
        } catch (const std::runtime_error&) {
            co_return false;
        }
        if (replies.size() == want) co_return true;
        auto [ec, got] = co_await s.async_read_some(asio::buffer(buffer), use_tuple);
        if (ec) co_return false;
        parser.feed(std::string_view(buffer, got));
    }
}

}  // namespace

asio::awaitable<Connected> connect_to(RedisStream& stream, const RedisAddress& address,
                                      std::chrono::milliseconds timeout) {
    auto executor = co_await asio::this_coro::executor;
    tcp::resolver resolver(executor);
    asio::steady_timer timer(executor);
    timer.expires_after(timeout);
    auto resolved = co_await (resolver.async_resolve(address.host, std::to_string(address.port), use_tuple) ||
                              timer.async_wait(use_tuple));
    if (resolved.index() != 0 || std::get<0>(std::get<0>(resolved))) co_return Connected{};
    const auto endpoints = std::get<1>(std::get<0>(resolved));
    auto& s = stream.socket();
    auto connected = co_await (asio::async_connect(s, endpoints, use_tuple) || timer.async_wait(use_tuple));
    if (connected.index() != 0 || std::get<0>(std::get<0>(connected))) co_return Connected{};
    boost::system::error_code ec;
    s.set_option(tcp::no_delay(true), ec);
    if (ec) co_return Connected{};
    detect_a_vanished_peer(s);
    if (!stream.uses_tls()) co_return Connected{.ok = true};
    const auto where = "TLS with Redis at " + address.to_string() + ": ";
    if (auto bad = stream.set_server_name(address.host)) co_return Connected{.tls_failure = where + *bad};
    // A server that does not speak TLS on this port may answer nothing: the same timer bounds it.
    auto shaken = co_await (stream.async_handshake(use_tuple) || timer.async_wait(use_tuple));
    if (shaken.index() != 0)
        co_return Connected{.tls_failure = where + "no handshake within " + std::to_string(timeout.count()) +
                                           " ms (does the server speak TLS on this port?)"};
    if (const auto [failed] = std::get<0>(shaken); failed)
        co_return Connected{.tls_failure = where + stream.describe_failure(failed)};
    co_return Connected{.ok = true};
}

asio::awaitable<std::optional<std::vector<RespValue>>> exchange(RedisStream& s, RespParser& parser,
                                                                const RedisCommands& commands,
                                                                std::chrono::milliseconds timeout) {
    std::string bytes;
    for (const auto& c : commands) bytes += resp_command(c);
    std::vector<RespValue> replies;
    asio::steady_timer timer(co_await asio::this_coro::executor);
    timer.expires_after(timeout);
    auto done = co_await (talk(s, parser, bytes, commands.size(), replies) || timer.async_wait(use_tuple));
    if (done.index() != 0 || !std::get<0>(done)) co_return std::nullopt;
    co_return replies;
}

void add_auth(RedisCommands& commands, const std::string& username, const std::string& password) {
    if (password.empty()) return;
    if (username.empty())
        commands.push_back({"AUTH", password});
    else
        commands.push_back({"AUTH", username, password});
}

}  // namespace mcp::detail
