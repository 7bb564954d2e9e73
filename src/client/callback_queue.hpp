#pragma once
// The application's notification callbacks, run on the handler pool one at a time in the order
// they were queued, never on the I/O thread. Bounded: past max_queued, callbacks are dropped and
// counted (a server flooding notifications costs no more memory than that).
#include "util/handler_pool.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace mcp::detail {

class CallbackQueue : public std::enable_shared_from_this<CallbackQueue> {
public:
    CallbackQueue(HandlerPool& pool, std::size_t max_queued) : pool_(pool), max_(max_queued) {}

    // False (and counted) when the queue is full or the pool refuses.
    bool push(std::function<void()> callback);
    std::uint64_t dropped() const { return dropped_.load(); }

private:
    void drain();

    HandlerPool& pool_;
    std::size_t max_;
    std::mutex mutex_;
    std::deque<std::function<void()>> queue_;
    bool draining_ = false;
    std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace mcp::detail
