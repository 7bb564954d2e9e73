#pragma once
// A TCP socket whose reads and writes time out, as Beast's tcp_stream's do (the socket is closed and
// the operation fails with beast::error::timeout), without a timer armed and cancelled for each
// operation. One timer per connection wakes at the deadline it was armed for; a deadline set since
// then that lies later (each request of a keep-alive connection pushes it on) only re-arms it then.
// An operation re-arms at once only when its deadline is earlier than the one the timer waits for.
//
// As with Beast's streams, one coroutine drives the socket: the operations it starts complete
// before it lets go of the socket, and nothing else touches the socket concurrently.
#include <boost/asio/associator.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <utility>

namespace mcp::detail {

class TimedSocket {
    using clock = std::chrono::steady_clock;

    // Shared with the timer's handler, which may run after the socket is gone.
    struct Watch {
        explicit Watch(boost::asio::ip::tcp::socket s) : socket(std::move(s)), timer(socket.get_executor()) {}
        boost::asio::ip::tcp::socket socket;
        boost::asio::steady_timer timer;
        clock::time_point deadline = clock::time_point::max();  // for the operations started from now on
        clock::time_point wakes_at = clock::time_point::max();  // max: the timer is not waiting
        int pending = 0;                                        // operations started and not completed
        bool timed_out = false;
    };

public:
    using executor_type = boost::asio::ip::tcp::socket::executor_type;
    using lowest_layer_type = boost::asio::ip::tcp::socket::lowest_layer_type;

    explicit TimedSocket(boost::asio::ip::tcp::socket socket) : watch_(std::make_shared<Watch>(std::move(socket))) {}
    TimedSocket(TimedSocket&&) noexcept = default;
    TimedSocket& operator=(TimedSocket&&) noexcept = default;
    TimedSocket(const TimedSocket&) = delete;
    TimedSocket& operator=(const TimedSocket&) = delete;
    ~TimedSocket() {
        if (watch_) watch_->timer.cancel();  // its handler lets go of the watch at once
    }

    executor_type get_executor() { return watch_->socket.get_executor(); }
    boost::asio::ip::tcp::socket& socket() { return watch_->socket; }
    lowest_layer_type& lowest_layer() { return watch_->socket.lowest_layer(); }

    void expires_after(clock::duration timeout) { watch_->deadline = clock::now() + timeout; }
    void expires_never() { watch_->deadline = clock::time_point::max(); }

    template <class Buffers, class Token>
    auto async_read_some(const Buffers& buffers, Token&& token) {
        return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
            [this](auto handler, const Buffers& b) {
                started();
                watch_->socket.async_read_some(b, Completion<decltype(handler)>{watch_.get(), std::move(handler)});
            },
            token, buffers);
    }
    template <class Buffers, class Token>
    auto async_write_some(const Buffers& buffers, Token&& token) {
        return boost::asio::async_initiate<Token, void(boost::system::error_code, std::size_t)>(
            [this](auto handler, const Buffers& b) {
                started();
                watch_->socket.async_write_some(b, Completion<decltype(handler)>{watch_.get(), std::move(handler)});
            },
            token, buffers);
    }

    // Runs the caller's handler, with beast::error::timeout if the deadline closed the socket.
    template <class Handler>
    struct Completion {
        Watch* watch;
        Handler handler;
        void operator()(boost::system::error_code ec, std::size_t n) {
            --watch->pending;
            if (watch->timed_out) ec = boost::beast::error::timeout;
            std::move(handler)(ec, n);
        }
    };

private:
    void started() {
        ++watch_->pending;
        if (watch_->deadline < watch_->wakes_at) arm(watch_);
    }

    static void arm(const std::shared_ptr<Watch>& watch) {
        watch->wakes_at = watch->deadline;
        watch->timer.expires_at(watch->deadline);  // a wait already there ends as operation_aborted
        watch->timer.async_wait([watch](const boost::system::error_code& ec) {
            if (!ec) wake(watch);
        });
    }

    static void wake(const std::shared_ptr<Watch>& watch) {
        watch->wakes_at = clock::time_point::max();
        if (watch->deadline == clock::time_point::max()) return;  // the next operation with one arms again
        if (clock::now() < watch->deadline) return arm(watch);    // pushed on since it was armed
        // Past the deadline with nothing pending: the next operation arms for a time already past,
        // and fails as soon as the timer runs.
        if (watch->pending == 0) return;
        watch->timed_out = true;
        boost::system::error_code ignored;
        watch->socket.close(ignored);
    }

    std::shared_ptr<Watch> watch_;
};

}  // namespace mcp::detail

// The completion is the caller's handler as far as Asio asks: its executor, allocator and
// cancellation slot.
template <template <class, class> class Associator, class Handler, class Default>
struct boost::asio::associator<Associator, mcp::detail::TimedSocket::Completion<Handler>, Default>
    : Associator<Handler, Default> {
    static typename Associator<Handler, Default>::type get(
        const mcp::detail::TimedSocket::Completion<Handler>& completion) noexcept {
        return Associator<Handler, Default>::get(completion.handler);
    }
    static auto get(const mcp::detail::TimedSocket::Completion<Handler>& completion, const Default& fallback) noexcept
        -> decltype(Associator<Handler, Default>::get(completion.handler, fallback)) {
        return Associator<Handler, Default>::get(completion.handler, fallback);
    }
};
