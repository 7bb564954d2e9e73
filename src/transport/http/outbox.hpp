#pragma once
// The bytes of one HTTP response, produced by handler threads and written by the connection's
// coroutine: the bridge between the handler pool and Asio.
#include <boost/asio/any_io_executor.hpp>
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

class Outbox {
public:
    Outbox(const boost::asio::any_io_executor& executor, std::size_t max_pending_bytes);

    // Producer side, any thread. start() once, then push() bytes, then finish(). Each returns
    // false when the connection is gone, or when an event stream fell more than
    // max_pending_bytes behind and was cut off.
    bool start(ResponseHead head);
    bool push(const std::string& bytes);
    void finish();

    // Consumer side, the connection's coroutine.
    // Completes when something new is there (a head, bytes, the end) or when detached.
    boost::asio::awaitable<void> wait();
    std::optional<ResponseHead> head();
    // The bytes queued so far; `finished` tells whether the producer is done.
    std::string take(bool& finished);
    // The connection is gone: later pushes are refused.
    void detach();
    bool detached();

private:
    void wake();

    std::mutex mutex_;
    std::optional<ResponseHead> head_;
    std::string pending_;
    bool finished_ = false;
    bool detached_ = false;
    const std::size_t max_pending_;
    // A one-slot wake-up signal: a pending signal makes further ones redundant.
    boost::asio::experimental::concurrent_channel<void(boost::system::error_code)> wakeup_;
};

}  // namespace mcp::detail
