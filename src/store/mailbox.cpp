#include "store/mailbox.hpp"

namespace mcp::detail {

MailboxWait::MailboxWait(Mailbox& mailbox, std::string key, std::chrono::milliseconds ttl)
    : mailbox_(mailbox), key_(std::move(key)) {
    mailbox_.expect(key_, ttl, [slot = slot_](boost::json::value value) {
        {
            std::lock_guard lock(slot->mutex);
            slot->value = std::move(value);
        }
        slot->arrived.notify_all();
    });
}

MailboxWait::~MailboxWait() {
    if (expecting_) mailbox_.forget(key_);
}

std::optional<boost::json::value> MailboxWait::get(std::chrono::steady_clock::time_point deadline,
                                                   std::stop_token stop) {
    {
        std::stop_callback wake(stop, [slot = slot_] {
            std::lock_guard lock(slot->mutex);
            slot->arrived.notify_all();
        });
        std::unique_lock lock(slot_->mutex);  // released before `wake` deregisters
        slot_->arrived.wait_until(lock, deadline, [&] { return slot_->value.has_value() || stop.stop_requested(); });
    }
    expecting_ = false;
    std::unique_lock lock(slot_->mutex);
    if (slot_->value) return std::move(slot_->value);
    lock.unlock();
    if (mailbox_.forget(key_)) return std::nullopt;
    // The answer came as the wait ended: its receiver is storing it.
    lock.lock();
    slot_->arrived.wait(lock, [&] { return slot_->value.has_value(); });
    return std::move(slot_->value);
}

}  // namespace mcp::detail
