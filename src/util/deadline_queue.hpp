#pragma once
// Callbacks due at a point in time, run by one thread of the queue's own. Scheduling and
// cancelling cost O(log n) and O(1), whatever the number waiting: 100,000 parked calls each
// with a timeout cost a heap entry and a map node each, never a thread or a scan.
//
// Callbacks run on the queue's thread, one at a time, and must be short (hand work to a pool).
// A cancelled callback is destroyed at once, not when its time comes.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

class DeadlineQueue {
public:
    using Clock = std::chrono::steady_clock;
    using Ticket = std::uint64_t;  // 0 is never issued

    DeadlineQueue();
    // Drops what is still waiting, without running it.
    ~DeadlineQueue();
    DeadlineQueue(const DeadlineQueue&) = delete;
    DeadlineQueue& operator=(const DeadlineQueue&) = delete;

    Ticket schedule(Clock::time_point due, std::function<void()> callback);
    // Runs `callback` on the queue's thread as soon as it can.
    void post(std::function<void()> callback) { schedule(Clock::now(), std::move(callback)); }
    // False when the callback ran, is running, or was cancelled already.
    bool cancel(Ticket ticket);
    std::size_t size() const;

private:
    struct Entry {
        Clock::time_point due;
        Ticket ticket;
        bool operator>(const Entry& other) const { return due > other.due; }
    };

    void run();

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    Ticket next_ = 1;
    // Cancelled entries stay in the heap until they reach its top; their callbacks are gone.
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
    std::unordered_map<Ticket, std::function<void()>> callbacks_;
    std::thread thread_;  // last: started once the rest exists
};

}  // namespace mcp::detail
