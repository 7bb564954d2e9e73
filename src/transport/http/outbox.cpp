#include "transport/http/outbox.hpp"

#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

Outbox::Outbox(const boost::asio::any_io_executor& executor, std::size_t max_pending_bytes)
    : max_pending_(max_pending_bytes), wakeup_(executor, 1) {}

bool Outbox::start(ResponseHead head) {
    {
        std::lock_guard lock(mutex_);
        if (detached_ || head_) return !detached_;
        head_ = std::move(head);
    }
    wake();
    return true;
}

bool Outbox::push(const std::string& bytes) {
    {
        std::lock_guard lock(mutex_);
        if (detached_ || finished_) return false;
        // Only a stream can fall behind: a JSON body arrives whole, already in memory.
        const bool streaming = head_ && head_->kind == ResponseHead::Kind::event_stream;
        if (streaming && pending_.size() + bytes.size() > max_pending_) {
            detached_ = true;  // the client is not reading: cut it off rather than buffer forever
        } else {
            pending_ += bytes;
        }
    }
    wake();
    return !detached();
}

void Outbox::finish() {
    {
        std::lock_guard lock(mutex_);
        finished_ = true;
    }
    wake();
}

boost::asio::awaitable<void> Outbox::wait() {
    {
        std::lock_guard lock(mutex_);
        if (detached_ || finished_ || !pending_.empty()) co_return;
    }
    co_await wakeup_.async_receive(boost::asio::use_awaitable);
}

std::optional<ResponseHead> Outbox::head() {
    std::lock_guard lock(mutex_);
    return head_;
}

std::string Outbox::take(bool& finished) {
    std::lock_guard lock(mutex_);
    finished = finished_;
    return std::exchange(pending_, {});
}

void Outbox::detach() {
    {
        std::lock_guard lock(mutex_);
        detached_ = true;
        pending_.clear();
    }
    wake();
}

bool Outbox::detached() {
    std::lock_guard lock(mutex_);
    return detached_;
}

void Outbox::wake() { wakeup_.try_send(boost::system::error_code{}); }

}  // namespace mcp::detail
