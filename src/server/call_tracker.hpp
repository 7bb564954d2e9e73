#pragma once
// The calls queued or running on the handler pool, so that shutdown can wait for them or cancel
// them all.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace mcp::detail {

struct CallState;

class CallTracker {
public:
    void started(const std::shared_ptr<CallState>& call);
    void ended(const CallState& call);
    // True when no call is left within `timeout`.
    bool wait_idle(std::chrono::milliseconds timeout);
    // Cancels every call, as notifications/cancelled would.
    void cancel_all();

private:
    std::mutex mutex_;
    std::condition_variable idle_;
    std::unordered_map<const CallState*, std::weak_ptr<CallState>> calls_;
};

}  // namespace mcp::detail
