#include "store/redis/redis_keys.hpp"
#include "store/redis/redis_store.hpp"

#include "util/log.hpp"
#include "util/random.hpp"

namespace mcp::detail {

namespace {
// Not a topic a channel can carry (topics hold no newline), so no publish can fake it.
constexpr std::string_view kReconnected = "\n reconnected";

// The channel a signal goes on: one of the topic's, picked by its payload, so that signals spread
// over a cluster's masters.
unsigned shard_of(std::string_view payload, unsigned shards) {
    return static_cast<unsigned>(std::hash<std::string_view>{}(payload) % shards);
}
}  // namespace

const RespValue& checked(const RespValue& reply) {
    if (reply.is_error()) throw StoreUnavailable("Redis refused a command: " + reply.text);
    return reply;
}

std::string redis_ms(std::chrono::milliseconds d) { return std::to_string(std::max<std::int64_t>(d.count(), 1)); }

void RedisNodeBus::Queue::post(std::string topic, std::string payload) {
    {
        std::lock_guard lock(mutex);
        if (stopping) return;
        signals.push_back(Signal{std::move(topic), std::move(payload)});
    }
    changed.notify_one();
}

RedisNodeBus::RedisNodeBus(RedisClient& client)
    : client_(client), node_id_(random_token(9)), worker_([this] { run(); }) {
    client_.on_reconnect([queue = queue_] { queue->post(std::string(kReconnected), {}); });
}

RedisNodeBus::~RedisNodeBus() {
    {
        std::lock_guard lock(queue_->mutex);
        queue_->stopping = true;
    }
    queue_->changed.notify_one();
    worker_.join();
}

void RedisNodeBus::publish(std::string_view topic, std::string_view payload) {
    client_.publish(redis_keys::channel(topic, shard_of(payload, client_.channel_shards())), std::string(payload));
}

std::uint64_t RedisNodeBus::subscribe(std::string topic, std::function<void(std::string_view)> handler) {
    std::lock_guard lock(handlers_mutex_);
    const auto id = next_id_++;
    // A topic's channels are subscribed to when it first has a handler, and stay so.
    if (topic != kReconnected && listened_.insert(topic).second) {
        std::vector<std::string> channels;
        for (unsigned shard = 0; shard < client_.channel_shards(); ++shard)
            channels.push_back(redis_keys::channel(topic, shard));
        client_.subscribe(channels, [queue = queue_, topic](std::string_view, std::string_view payload) {
            queue->post(topic, std::string(payload));
        });
    }
    handlers_.emplace(id, Handler{std::move(topic), std::move(handler)});
    return id;
}

void RedisNodeBus::unsubscribe(std::uint64_t id) {
    std::lock_guard lock(handlers_mutex_);
    handlers_.erase(id);
}

std::uint64_t RedisNodeBus::on_reconnect(std::function<void()> handler) {
    return subscribe(std::string(kReconnected), [handler = std::move(handler)](std::string_view) { handler(); });
}

void RedisNodeBus::run() {
    std::unique_lock lock(queue_->mutex);
    while (true) {
        queue_->changed.wait(lock, [&] { return queue_->stopping || !queue_->signals.empty(); });
        if (queue_->stopping) return;
        auto signal = std::move(queue_->signals.front());
        queue_->signals.pop_front();
        lock.unlock();
        {
            std::lock_guard handlers_lock(handlers_mutex_);
            for (auto& [id, h] : handlers_) {
                if (h.topic != signal.topic) continue;
                try {
                    h.run(signal.payload);
                } catch (const std::exception& e) {
                    // Usually Redis going away mid-handler; pub/sub is only a wake-up, the state
                    // converges. The other handlers of the signal still run.
                    log().debug("node signal {} not handled: {}", signal.topic, e.what());
                }
            }
        }
        lock.lock();
    }
}

}  // namespace mcp::detail
