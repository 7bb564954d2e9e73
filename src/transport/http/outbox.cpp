#include "transport/http/outbox.hpp"

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail {

Outbox::Outbox(std::size_t max_pending_bytes) : max_pending_(max_pending_bytes) {}

bool Outbox::start(ResponseHead head) {
    std::lock_guard lock(mutex_);
    if (detached_ || head_) return !detached_;
    head_ = std::move(head);
    wake();
    return true;
}

bool Outbox::push(std::string bytes) {
    std::lock_guard lock(mutex_);
    if (detached_ || finished_) return false;
    // Only a stream can fall behind: a JSON body arrives whole, already in memory.
    const bool streaming = head_ && head_->kind == ResponseHead::Kind::event_stream;
    if (streaming && pending_.size() + bytes.size() > max_pending_) {
        detached_ = true;  // the client is not reading: cut it off rather than buffer forever
    } else if (pending_.empty()) {
        pending_ = std::move(bytes);  // a JSON body, or a stream's first event since the last write
    } else {
        pending_ += bytes;
    }
    wake();
    return !detached_;
}

void Outbox::finish() {
    std::lock_guard lock(mutex_);
    finished_ = true;
    wake();
}

bool Outbox::answer(ResponseHead head, std::string body) {
    std::lock_guard lock(mutex_);
    if (detached_ || head_) return false;
    head_ = std::move(head);
    pending_ = std::move(body);
    finished_ = true;
    wake();
    return true;
}

boost::asio::awaitable<void> Outbox::wait() {
    const auto executor = co_await boost::asio::this_coro::executor;
    {
        std::lock_guard lock(mutex_);
        if (detached_ || finished_ || !pending_.empty()) co_return;
        if (!wakeup_) {
            wakeup_.emplace(executor, 1);
            if (std::exchange(woken_, false)) co_return;
        }
    }
    // Only this coroutine makes or drops the channel: it stays while awaited.
    co_await wakeup_->async_receive(boost::asio::use_awaitable);
}

void Outbox::release_consumer() {
    std::lock_guard lock(mutex_);
    wakeup_.reset();
}

std::optional<ResponseHead> Outbox::head() {
    std::lock_guard lock(mutex_);
    return head_;
}

std::optional<Outbox::Whole> Outbox::take_whole() {
    std::lock_guard lock(mutex_);
    if (!head_ || head_->kind == ResponseHead::Kind::event_stream || !finished_ || detached_) return std::nullopt;
    return Whole{std::move(*head_), std::exchange(pending_, {})};
}

std::string Outbox::take(bool& finished) {
    std::lock_guard lock(mutex_);
    finished = finished_;
    return std::exchange(pending_, {});
}

void Outbox::detach() {
    std::lock_guard lock(mutex_);
    detached_ = true;
    pending_.clear();
    wake();
}

bool Outbox::detached() {
    std::lock_guard lock(mutex_);
    return detached_;
}

void Outbox::wake() {
    if (wakeup_)
        wakeup_->try_send(boost::system::error_code{});
    else
        woken_ = true;
}

}  // namespace mcp::detail
