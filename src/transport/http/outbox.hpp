#pragma once
// The bytes of one HTTP response, produced by handler threads and written by the connection's
// coroutine: the bridge between the handler pool and Asio.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail {

// How the response starts; chosen by whoever produces it, once.
struct ResponseHead {
    enum class Kind { json, event_stream, accepted, error } kind = Kind::json;
    unsigned status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
};

// Producers may hold an outbox long after its connection ended, up to the server's own end (a
// parked call's stream, a session's): so only the connection's coroutine ties it to Asio, from its
// first wait() until release_consumer(), and it must release before its I/O context is gone.
class Outbox {
public:
    explicit Outbox(std::size_t max_pending_bytes);

    // Producer side, any thread. start() once, then push() bytes, then finish(). Each returns
    // false when the connection is gone, or when an event stream fell more than
    // max_pending_bytes behind and was cut off.
    bool start(ResponseHead head);
    bool push(std::string bytes);
    void finish();
    // start(), push() and finish() of a whole response in one step (and under one lock); false
    // when the connection is gone or a head was given before.
    bool answer(ResponseHead head, std::string body);

    // Consumer side, the connection's coroutine.
    // Completes when something new is there (a head, bytes, the end) or when detached.
    boost::asio::awaitable<void> wait();
    // The consumer is done: the wake-up signal, tied to its I/O context, goes now. Later wake-ups
    // from producers touch nothing of Asio.
    void release_consumer();
    std::optional<ResponseHead> head();
    // A whole JSON response (not a stream) the producer has finished: its head and body, taken in
    // one step. Nothing while it is still being produced.
    struct Whole {
        ResponseHead head;
        std::string body;
    };
    std::optional<Whole> take_whole();
    // The bytes queued so far; `finished` tells whether the producer is done.
    std::string take(bool& finished);
    // The connection is gone: later pushes are refused.
    void detach();
    bool detached();

private:
    // With mutex_ held: the channel is made and dropped under it.
    void wake();

    std::mutex mutex_;
    std::optional<ResponseHead> head_;
    std::string pending_;
    bool finished_ = false;
    bool detached_ = false;
    const std::size_t max_pending_;
    // A one-slot wake-up signal: a pending signal makes further ones redundant. Made by the first
    // wait(), on the consumer's executor; until then a wake-up is remembered in `woken_`.
    std::optional<boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>> wakeup_;
    bool woken_ = false;
};

}  // namespace mcp::detail
