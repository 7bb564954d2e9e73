// The HTTP transport's TimedSocket over loopback: an operation past its deadline fails with
// beast::error::timeout and closes the socket; a deadline pushed on by each operation, an earlier
// one, one already past and none at all; a socket destroyed with its timer armed.
#include "transport/http/timed_socket.hpp"

#include <gtest/gtest.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <string>

namespace asio = boost::asio;
using asio::ip::tcp;
using mcp::detail::TimedSocket;
using namespace std::chrono_literals;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// A connected pair on loopback: `ours` wrapped, `peer` plain, on one io_context.
struct Pair {
    asio::io_context io{1};
    tcp::socket peer{io};
    std::optional<TimedSocket> ours;

    Pair() {
        tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
        tcp::socket client(io);
        client.connect(acceptor.local_endpoint());
        peer = acceptor.accept();
        ours.emplace(std::move(client));
    }

    // Runs `body` to its end; a test that would hang fails after `limit` instead.
    template <class Body>
    void run(Body body, std::chrono::steady_clock::duration limit = 10s) {
        bool finished = false;
        asio::co_spawn(
            io,
            [&]() -> asio::awaitable<void> {
                co_await body();
                finished = true;
            },
            [](const std::exception_ptr& e) {
                if (e) std::rethrow_exception(e);
            });
        io.run_for(limit);
        ASSERT_TRUE(finished) << "did not finish in time";
    }

    asio::awaitable<void> pause(std::chrono::milliseconds d) {
        asio::steady_timer timer(io, d);
        co_await timer.async_wait(use_tuple);
    }

    // The peer sends a byte after `delay`, while the test goes on.
    void send_after(std::chrono::milliseconds delay) {
        asio::co_spawn(
            io,
            [this, delay]() -> asio::awaitable<void> {
                co_await pause(delay);
                co_await asio::async_write(peer, asio::buffer("a", 1), use_tuple);
            },
            asio::detached);
    }

    // One byte through `ours`: how the read ended.
    asio::awaitable<boost::system::error_code> read_byte() {
        char byte = 0;
        auto [ec, n] = co_await ours->async_read_some(asio::buffer(&byte, 1), use_tuple);
        co_return ec;
    }
};

}  // namespace

TEST(TimedSocket, AReadPastItsDeadlineFailsWithTimeoutAndClosesTheSocket) {
    Pair p;
    boost::system::error_code result;
    p.run([&]() -> asio::awaitable<void> {
        p.ours->expires_after(100ms);
        result = co_await p.read_byte();
    });
    EXPECT_EQ(result, boost::beast::error::timeout);
    EXPECT_FALSE(p.ours->socket().is_open());
}

TEST(TimedSocket, AWritePastItsDeadlineFailsWithTimeout) {
    Pair p;  // the peer never reads: the kernel's buffers fill, then the write waits
    boost::system::error_code result;
    p.run([&]() -> asio::awaitable<void> {
        const std::string chunk(1 << 20, 'x');
        p.ours->expires_after(200ms);
        for (int i = 0; i < 256 && !result; ++i)
            std::tie(result, std::ignore) = co_await asio::async_write(*p.ours, asio::buffer(chunk), use_tuple);
    });
    EXPECT_EQ(result, boost::beast::error::timeout);
}

TEST(TimedSocket, EachOperationPushesTheDeadlineOn) {
    Pair p;  // eight reads, each well within its own 1 s, 1.6 s in all
    int read = 0;
    boost::system::error_code failure;
    p.run([&]() -> asio::awaitable<void> {
        for (int i = 0; i < 8 && !failure; ++i) {
            p.send_after(200ms);
            p.ours->expires_after(1s);
            failure = co_await p.read_byte();
            if (!failure) ++read;
        }
    });
    EXPECT_FALSE(failure) << failure.message();
    EXPECT_EQ(read, 8);
    EXPECT_TRUE(p.ours->socket().is_open());
}

TEST(TimedSocket, AnEarlierDeadlineIsKeptThoughTheTimerWaitsForALaterOne) {
    Pair p;
    boost::system::error_code first;
    boost::system::error_code second;
    const auto start = std::chrono::steady_clock::now();
    p.run(
        [&]() -> asio::awaitable<void> {
            co_await asio::async_write(p.peer, asio::buffer("a", 1), use_tuple);
            p.ours->expires_after(1h);  // the timer now waits an hour
            first = co_await p.read_byte();
            p.ours->expires_after(100ms);
            second = co_await p.read_byte();
        },
        5s);
    EXPECT_FALSE(first);
    EXPECT_EQ(second, boost::beast::error::timeout);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(TimedSocket, NoDeadlineNeverTimesOut) {
    Pair p;  // a deadline set and taken back: the read waits for the peer, past it
    boost::system::error_code result;
    p.run([&]() -> asio::awaitable<void> {
        p.send_after(400ms);
        p.ours->expires_after(100ms);
        p.ours->expires_never();
        result = co_await p.read_byte();
    });
    EXPECT_FALSE(result) << result.message();
}

TEST(TimedSocket, TimeBetweenOperationsDoesNotCount) {
    Pair p;  // the deadline of a finished read passes while nothing waits: nothing is closed
    boost::system::error_code result;
    p.run([&]() -> asio::awaitable<void> {
        co_await asio::async_write(p.peer, asio::buffer("ab", 2), use_tuple);
        p.ours->expires_after(100ms);
        co_await p.read_byte();
        co_await p.pause(300ms);  // a handler at work, past the read's deadline
        p.ours->expires_after(1s);
        result = co_await p.read_byte();
    });
    EXPECT_FALSE(result) << result.message();
    EXPECT_TRUE(p.ours->socket().is_open());
}

TEST(TimedSocket, AnOperationStartedPastItsDeadlineFailsAtOnce) {
    Pair p;
    boost::system::error_code result;
    p.run(
        [&]() -> asio::awaitable<void> {
            p.ours->expires_after(50ms);
            co_await p.pause(200ms);
            result = co_await p.read_byte();
        },
        5s);
    EXPECT_EQ(result, boost::beast::error::timeout);
}

TEST(TimedSocket, DestroyedWithItsTimerArmed) {
    Pair p;
    p.run([&]() -> asio::awaitable<void> {
        co_await asio::async_write(p.peer, asio::buffer("a", 1), use_tuple);
        p.ours->expires_after(50ms);
        co_await p.read_byte();
        p.ours.reset();           // the timer still waits for 50 ms
        co_await p.pause(150ms);  // its handler runs after the socket is gone
    });
    EXPECT_FALSE(p.ours.has_value());
}
