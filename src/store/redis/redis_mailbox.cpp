#include "store/redis/redis_store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcp::detail {

using Clock = std::chrono::steady_clock;

RedisMailbox::RedisMailbox(RedisClient& client, Cluster& cluster) : client_(client), cluster_(cluster) {
    delivered_ = cluster_.subscribe("mailbox", [this](std::string_view key) { wake(key); });
    reconnected_ = cluster_.on_reconnect([this] { wake_all(); });  // a delivery may have been missed
}

RedisMailbox::~RedisMailbox() {
    cluster_.unsubscribe(delivered_);
    cluster_.unsubscribe(reconnected_);
}

void RedisMailbox::open(std::string_view key, std::chrono::milliseconds ttl) {
    {
        std::lock_guard lock(mutex_);
        waiting_[std::string(key)];
    }
    try {
        // The request goes to the client once this returns; its answer is refused without the marker.
        checked(
            client_.pipeline_replicated({{"SET", "mcp:mbo:" + std::string(key), "1", "PX", redis_ms(ttl)}}).front());
    } catch (const StoreUnavailable&) {
        std::lock_guard lock(mutex_);
        waiting_.erase(std::string(key));
        throw;
    }
}

std::optional<boost::json::value> RedisMailbox::wait(std::string_view key, Clock::time_point deadline,
                                                     std::stop_token stop) {
    const std::string k(key);
    std::optional<boost::json::value> value;
    {
        std::stop_callback on_stop(stop, [this] { wake_all(); });
        while (!value && !stop.stop_requested() && Clock::now() < deadline) {
            try {
                auto reply = client_.command({"GETDEL", "mcp:mb:" + k});
                if (!reply.is_nil() && !reply.is_error()) {
                    boost::system::error_code ec;
                    auto parsed = boost::json::parse(reply.text, ec);
                    if (!ec) value = std::move(parsed);
                    break;
                }
            } catch (const StoreUnavailable&) {
                // Redis is away: keep waiting for it, within the deadline.
            }
            // Pub/sub only wakes us early; the poll is what guarantees progress.
            std::unique_lock lock(mutex_);
            auto& slot = waiting_[k];
            slot.changed.wait_until(lock, std::min(deadline, Clock::now() + std::chrono::milliseconds(500)),
                                    [&] { return slot.woken || stop.stop_requested(); });
            slot.woken = false;
        }
    }
    {
        std::lock_guard lock(mutex_);
        waiting_.erase(k);
    }
    try {
        client_.command({"DEL", "mcp:mbo:" + k});
    } catch (const StoreUnavailable&) {
        // The marker expires by itself.
    }
    return value;
}

bool RedisMailbox::deliver(std::string_view key, boost::json::value value) {
    // Stored only while a handler waits; then the waiter's node is woken.
    static const std::string script =
        "if redis.call('DEL', KEYS[1]) == 1 then "
        "redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) "
        "redis.call('PUBLISH', 'mcp:bus:mailbox', ARGV[3]) return 1 end return 0";
    const std::string k(key);
    // The client is told its answer arrived once this returns.
    auto replies = client_.pipeline_replicated(
        {{"EVAL", script, "2", "mcp:mbo:" + k, "mcp:mb:" + k, boost::json::serialize(value), "600000", k}});
    return checked(replies.front()).integer == 1;
}

void RedisMailbox::wake(std::string_view key) {
    std::lock_guard lock(mutex_);
    auto it = waiting_.find(std::string(key));
    if (it == waiting_.end()) return;
    it->second.woken = true;
    it->second.changed.notify_all();
}

void RedisMailbox::wake_all() {
    std::lock_guard lock(mutex_);
    for (auto& [key, slot] : waiting_) {
        slot.woken = true;
        slot.changed.notify_all();
    }
}

}  // namespace mcp::detail
