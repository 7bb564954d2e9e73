#include "server/call_tracker.hpp"

#include "server/call.hpp"

#include <vector>

namespace mcp::detail {

void CallTracker::started(const std::shared_ptr<CallState>& call) {
    std::lock_guard lock(mutex_);
    calls_.emplace(call.get(), call);
}

void CallTracker::ended(const CallState& call) {
    std::lock_guard lock(mutex_);
    calls_.erase(&call);
    if (calls_.empty()) idle_.notify_all();
}

bool CallTracker::wait_idle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return idle_.wait_for(lock, timeout, [&] { return calls_.empty(); });
}

void CallTracker::cancel_all() {
    std::vector<std::shared_ptr<CallState>> calls;
    {
        std::lock_guard lock(mutex_);
        for (auto& [ptr, weak] : calls_) {
            if (auto call = weak.lock()) calls.push_back(std::move(call));
        }
    }
    for (auto& call : calls) {
        call->cancelled_by_client.store(true);
        call->stop.request_stop();
    }
}

}  // namespace mcp::detail
