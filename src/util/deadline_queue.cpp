#include "util/deadline_queue.hpp"

#include "util/log.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <exception>

namespace mcp::detail {

DeadlineQueue::DeadlineQueue() : thread_([this] { run(); }) {}

DeadlineQueue::~DeadlineQueue() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_one();
    thread_.join();
}

DeadlineQueue::Ticket DeadlineQueue::schedule(Clock::time_point due, std::function<void()> callback) {
    bool earliest = false;
    Ticket ticket = 0;
    {
        std::lock_guard lock(mutex_);
        ticket = next_++;
        earliest = heap_.empty() || due < heap_.top().due;
        heap_.push(Entry{due, ticket});
        callbacks_.emplace(ticket, std::move(callback));
    }
    if (earliest) changed_.notify_one();
    return ticket;
}

bool DeadlineQueue::cancel(Ticket ticket) {
    std::function<void()> dropped;  // destroyed outside the lock: it may own what takes locks
    std::lock_guard lock(mutex_);
    auto it = callbacks_.find(ticket);
    if (it == callbacks_.end()) return false;
    dropped = std::move(it->second);
    callbacks_.erase(it);
    // A heap of mostly cancelled entries is rebuilt, so that it stays within twice what waits.
    if (heap_.size() > 64 && heap_.size() > 2 * callbacks_.size()) {
        std::vector<Entry> live;
        live.reserve(callbacks_.size());
        while (!heap_.empty()) {
            if (callbacks_.contains(heap_.top().ticket)) live.push_back(heap_.top());
            heap_.pop();
        }
        heap_ = decltype(heap_)(std::greater<>(), std::move(live));
    }
    return true;
}

std::size_t DeadlineQueue::size() const {
    std::lock_guard lock(mutex_);
    return callbacks_.size();
}

void DeadlineQueue::run() {
    pthread_setname_np(pthread_self(), "mcp-deadlines");
    // Housekeeping (timeouts, closing a session's thousands of parked calls) yields the CPU to the
    // threads serving requests: on Linux, nice applies to this thread alone. Failing is harmless.
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (heap_.empty()) {
            changed_.wait(lock);
            continue;
        }
        const Entry next = heap_.top();
        if (Clock::now() < next.due) {
            changed_.wait_until(lock, next.due);
            continue;
        }
        heap_.pop();
        auto it = callbacks_.find(next.ticket);
        if (it == callbacks_.end()) continue;  // cancelled
        auto callback = std::move(it->second);
        callbacks_.erase(it);
        lock.unlock();
        try {
            callback();
        } catch (const std::exception& e) {
            log().error("a deadline callback failed: {}", e.what());
        }
        callback = nullptr;  // released before the lock is taken again
        lock.lock();
    }
}

}  // namespace mcp::detail
