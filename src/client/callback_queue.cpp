#include "client/callback_queue.hpp"

#include "util/log.hpp"

#include <exception>

namespace mcp::detail {

bool CallbackQueue::push(std::function<void()> callback) {
    {
        std::lock_guard lock(mutex_);
        if (queue_.size() >= max_) {
            ++dropped_;
            return false;
        }
        queue_.push_back(std::move(callback));
        if (draining_) return true;
        draining_ = true;
    }
    if (pool_.try_submit([self = shared_from_this()] { self->drain(); }, Admission::always)) return true;
    std::lock_guard lock(mutex_);  // the pool is shut down: nothing will run these
    dropped_ += queue_.size();
    queue_.clear();
    draining_ = false;
    return false;
}

void CallbackQueue::drain() {
    while (true) {
        std::function<void()> next;
        {
            std::lock_guard lock(mutex_);
            if (queue_.empty()) {
                draining_ = false;
                return;
            }
            next = std::move(queue_.front());
            queue_.pop_front();
        }
        try {
            next();
        } catch (const std::exception& e) {
            log().warn("client: a notification callback threw: {}", printable(e.what()));
        } catch (...) {
            log().warn("client: a notification callback threw");
        }
    }
}

}  // namespace mcp::detail
