#pragma once
// What the HTTP client's tests share: a coroutine run to its end on a test's io_context (which the
// client's kept connections never let run out of work), the error a request fails with, and
// waiting for a condition another thread makes true.
#include "net/http_client.hpp"
#include "net/http_error.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>

#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <stdexcept>
#include <thread>

namespace mcp::test {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// Runs `io` until `future` is ready, at most 10 s, and returns what it holds.
template <class T>
T finish(asio::io_context& io, std::future<T>& future) {
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (future.wait_for(0s) != std::future_status::ready) {
        if (std::chrono::steady_clock::now() > until) throw std::runtime_error("the test's coroutine took over 10 s");
        io.restart();
        io.run_for(10ms);
    }
    return future.get();
}

// Runs `task` on `io` until it completes, at most 10 s.
template <class T>
T run(asio::io_context& io, asio::awaitable<T> task) {
    auto future = asio::co_spawn(io, std::move(task), asio::use_future);
    return finish(io, future);
}

// The HttpError `task` fails with; nothing when it succeeds.
template <class T>
std::optional<net::HttpError> failure_of(asio::io_context& io, asio::awaitable<T> task) {
    try {
        run(io, std::move(task));
    } catch (const net::HttpError& e) {
        return e;
    }
    return std::nullopt;
}

// Runs `io` for `duration` (timers, kept connections' expiry).
inline void run_for(asio::io_context& io, std::chrono::milliseconds duration) {
    io.restart();
    io.run_for(duration);
}

// Polls `condition` until it holds or `limit` passes; whether it held.
inline bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds limit = 2s) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

inline asio::awaitable<void> sleep(std::chrono::milliseconds duration) {
    asio::steady_timer timer(co_await asio::this_coro::executor, duration);
    co_await timer.async_wait(asio::use_awaitable);
}

inline net::HttpRequest get(std::string url) {
    net::HttpRequest request;
    request.url = std::move(url);
    return request;
}

// Options for loopback tests: no proxies from the environment.
inline net::HttpClientOptions local_options() {
    net::HttpClientOptions options;
    options.proxy.from_environment = false;
    options.request_timeout = 5s;
    return options;
}

}  // namespace mcp::test
