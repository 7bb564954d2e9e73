#include "store/mailbox.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mcp::detail {

namespace {

class MemoryMailbox final : public Mailbox {
public:
    void open(std::string_view key, std::chrono::milliseconds ttl) override {
        std::lock_guard lock(mutex_);
        sweep_locked();
        slots_[std::string(key)] =
            Slot{std::nullopt, std::chrono::steady_clock::now() + ttl, std::make_shared<std::condition_variable>()};
    }

    std::optional<boost::json::value> wait(std::string_view key, std::chrono::steady_clock::time_point deadline,
                                           std::stop_token stop) override {
        const std::string k(key);
        std::shared_ptr<std::condition_variable> changed;
        {
            std::lock_guard lock(mutex_);
            auto it = slots_.find(k);
            if (it == slots_.end()) return std::nullopt;
            changed = it->second.changed;
        }
        // Declared before the lock: it must be destroyed after the lock is released, since a
        // callback running on another thread takes the mutex.
        std::stop_callback wake(stop, [this, changed] {
            std::lock_guard l(mutex_);
            changed->notify_all();
        });
        std::unique_lock lock(mutex_);
        changed->wait_until(lock, deadline, [&] {
            auto it = slots_.find(k);
            return it == slots_.end() || it->second.value.has_value() || stop.stop_requested();
        });
        std::optional<boost::json::value> value;
        if (auto it = slots_.find(k); it != slots_.end()) {
            value = std::move(it->second.value);
            slots_.erase(it);
        }
        return value;
    }

    bool deliver(std::string_view key, boost::json::value value) override {
        std::lock_guard lock(mutex_);
        auto it = slots_.find(std::string(key));
        if (it == slots_.end() || it->second.value) return false;
        it->second.value = std::move(value);
        it->second.changed->notify_all();
        return true;
    }

private:
    struct Slot {
        std::optional<boost::json::value> value;
        std::chrono::steady_clock::time_point expires;
        std::shared_ptr<std::condition_variable> changed;  // one per slot: a delivery wakes one waiter
    };

    // Slots whose waiter went away without collecting them (it cannot: wait() always closes).
    // This bounds what a slot that was opened but never waited on can cost.
    void sweep_locked() {
        const auto now = std::chrono::steady_clock::now();
        std::erase_if(slots_, [&](const auto& kv) { return kv.second.expires < now; });
    }

    std::mutex mutex_;
    std::unordered_map<std::string, Slot> slots_;
};

}  // namespace

std::unique_ptr<Mailbox> make_memory_mailbox() { return std::make_unique<MemoryMailbox>(); }

}  // namespace mcp::detail
