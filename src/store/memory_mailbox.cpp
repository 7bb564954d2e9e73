#include "store/mailbox.hpp"

#include <array>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mcp::detail {

namespace {

// Keys spread over shards with a lock each, so that parking, answering and timing out calls on
// several threads rarely meet on one mutex. Nothing is ever scanned: a key leaves when it is
// answered or forgotten, which its owner always does.
class MemoryMailbox final : public Mailbox {
public:
    void expect(std::string_view key, std::chrono::milliseconds /*ttl*/, Receiver receiver) override {
        auto& shard = shard_of(key);
        std::lock_guard lock(shard.mutex);
        shard.receivers.insert_or_assign(std::string(key), std::move(receiver));
    }

    bool forget(std::string_view key) override { return take(key) != nullptr; }

    bool deliver(std::string_view key, boost::json::value value) override {
        auto receiver = take(key);
        if (!receiver) return false;
        receiver(std::move(value));
        return true;
    }

private:
    struct Shard {
        std::mutex mutex;
        std::unordered_map<std::string, Receiver> receivers;
    };

    Shard& shard_of(std::string_view key) { return shards_[std::hash<std::string_view>{}(key) % shards_.size()]; }

    Receiver take(std::string_view key) {
        auto& shard = shard_of(key);
        std::lock_guard lock(shard.mutex);
        auto it = shard.receivers.find(std::string(key));
        if (it == shard.receivers.end()) return nullptr;
        auto receiver = std::move(it->second);
        shard.receivers.erase(it);
        return receiver;
    }

    std::array<Shard, 16> shards_;
};

}  // namespace

std::unique_ptr<Mailbox> make_memory_mailbox() { return std::make_unique<MemoryMailbox>(); }

}  // namespace mcp::detail
