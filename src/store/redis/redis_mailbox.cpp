#include "store/redis/redis_keys.hpp"
#include "store/redis/redis_store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <vector>

namespace mcp::detail {

namespace {
constexpr std::size_t kCatchUpBatch = 512;  // GETDELs per round trip when catching up
using redis_keys::mailbox_answer;
using redis_keys::mailbox_marker;
}  // namespace

RedisMailbox::RedisMailbox(RedisClient& client, NodeBus& bus) : client_(client), bus_(bus) {
    delivered_ = bus_.subscribe("mailbox", [this](std::string_view key) { wake(key); });
    reconnected_ = bus_.on_reconnect([this] { wake_all(); });  // a delivery may have been missed
}

RedisMailbox::~RedisMailbox() {
    bus_.unsubscribe(delivered_);
    bus_.unsubscribe(reconnected_);
}

void RedisMailbox::expect(std::string_view key, std::chrono::milliseconds ttl, Receiver receiver) {
    const std::string k(key);
    {
        std::lock_guard lock(mutex_);
        expected_.insert_or_assign(k, std::move(receiver));
    }
    try {
        // The request goes to the client once this returns; its answer is refused without the marker.
        checked(client_.pipeline_replicated({{"SET", mailbox_marker(k), "1", "PX", redis_ms(ttl)}}).front());
    } catch (const StoreUnavailable&) {
        take(k);
        throw;
    }
}

bool RedisMailbox::forget(std::string_view key) {
    const std::string k(key);
    if (!take(k)) return false;
    try {
        client_.command({"DEL", mailbox_marker(k), mailbox_answer(k)});
    } catch (const StoreUnavailable&) {
        // Both keys expire by themselves.
    }
    return true;
}

bool RedisMailbox::deliver(std::string_view key, boost::json::value value) {
    // Stored only while a node expects it; then that node is woken. The wake-up is a step of its
    // own (its channel is on another slot than the keys): when it is lost, the node that expects
    // the answer finds it when it catches up after its own subscription comes back.
    static const std::string script =
        "if redis.call('DEL', KEYS[1]) == 1 then redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) return 1 end "
        "return 0";
    const std::string k(key);
    // The client is told its answer arrived once this returns.
    auto replies = client_.pipeline_replicated(
        {{"EVAL", script, "2", mailbox_marker(k), mailbox_answer(k), boost::json::serialize(value), "600000"}});
    if (checked(replies.front()).integer == 0) return false;
    try {
        bus_.publish("mailbox", k);
    } catch (const StoreUnavailable&) {
        // As above.
    }
    return true;
}

Mailbox::Receiver RedisMailbox::take(const std::string& key) {
    Receiver receiver;
    std::lock_guard lock(mutex_);
    if (auto it = expected_.find(key); it != expected_.end()) {
        receiver = std::move(it->second);
        expected_.erase(it);
    }
    return receiver;
}

void RedisMailbox::hand_over(const std::string& key, const RespValue& stored) {
    if (stored.is_nil() || stored.is_error()) return;
    boost::system::error_code ec;
    auto value = boost::json::parse(stored.text, ec);
    if (ec) return;
    if (auto receiver = take(key)) receiver(std::move(value));
}

void RedisMailbox::wake(std::string_view key) {
    const std::string k(key);
    {
        std::lock_guard lock(mutex_);
        if (!expected_.contains(k)) return;  // another node's
    }
    hand_over(k, client_.command({"GETDEL", mailbox_answer(k)}));
}

void RedisMailbox::wake_all() {
    std::vector<std::string> keys;
    {
        std::lock_guard lock(mutex_);
        keys.reserve(expected_.size());
        for (const auto& entry : expected_) keys.push_back(entry.first);
    }
    for (std::size_t i = 0; i < keys.size(); i += kCatchUpBatch) {
        std::vector<std::vector<std::string>> commands;
        const auto end = std::min(keys.size(), i + kCatchUpBatch);
        for (std::size_t j = i; j < end; ++j) commands.push_back({"GETDEL", mailbox_answer(keys[j])});
        const auto replies = client_.pipeline(commands);
        for (std::size_t j = i; j < end; ++j) hand_over(keys[j], replies[j - i]);
    }
}

}  // namespace mcp::detail
