#pragma once
// Redis Cluster (redis-cluster://): a RedisClient per master, and every command sent to the master
// of its key's slot (docs/adr/0027-redis-cluster.md).
//   - The slot map comes from CLUSTER SHARDS (Redis 7.0), asked of a known master or a seed of the
//     URL at startup, every second, and at once when a node is lost or redirects a command.
//   - MOVED: the slot's new master is noted and the command sent there. ASK (a slot being moved):
//     the command goes there once, after ASKING. TRYAGAIN and CLUSTERDOWN, and a master that cannot
//     be reached (the command was not sent): tried again after a jittered back-off, within the
//     command timeout, then StoreUnavailable (503 with Retry-After, as with Sentinel). A command
//     whose connection was lost after it was sent is not sent again: it may have run.
//   - Subscriptions are SSUBSCRIBE on the master of each channel's slot, one command per slot,
//     moved with the slot.
#include "store/redis/redis_client.hpp"
#include "store/redis/redis_cluster_replies.hpp"

#include <array>
#include <condition_variable>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>

namespace mcp::detail {

// The key a command is routed by: the first key (EVAL's too), the channel of SPUBLISH; nothing
// for a command without one (PING, CLUSTER ...), which any master may run.
std::optional<std::string_view> routing_key(const std::vector<std::string>& command);

class RedisCluster {
public:
    RedisCluster(RedisUrl url, RedisClient::Options options);
    ~RedisCluster();
    RedisCluster(const RedisCluster&) = delete;
    RedisCluster& operator=(const RedisCluster&) = delete;

    std::vector<RespValue> pipeline(const std::vector<std::vector<std::string>>& commands, bool replicated);
    // Every slot has a master, and the client of each is connected.
    bool connected() const;
    std::string tls_failure() const;
    bool wait_connected(std::chrono::milliseconds timeout) const;
    void subscribe(const std::vector<std::string>& channels, RedisClient::Callback callback);
    void on_reconnect(std::function<void()> callback);
    std::chrono::milliseconds command_timeout() const { return options_.command_timeout; }

private:
    using Node = std::shared_ptr<RedisClient>;
    static constexpr std::uint16_t kNoMaster = 0xffff;

    Node node(const RedisAddress& address);
    std::optional<RedisAddress> master_of(std::uint16_t slot) const;
    void moved(std::uint16_t slot, const RedisAddress& to);
    void refresh_soon();
    void refresh_loop();
    bool refresh();
    void apply(const std::vector<ClusterShard>& shards);
    void resubscribe();
    void deliver(std::string_view channel, std::string_view message);

    const RedisUrl url_;
    const RedisClient::Options options_;

    mutable std::shared_mutex map_mutex_;
    std::vector<RedisAddress> masters_;
    std::array<std::uint16_t, 16384> owner_{};  // index in masters_, or kNoMaster
    std::map<std::string, Node> nodes_;         // by address, the masters' and those being tried

    std::mutex subs_mutex_;
    std::map<std::string, RedisClient::Callback, std::less<>> channels_;
    std::mutex resubscribe_mutex_;
    std::map<std::string, std::vector<std::vector<std::string>>> subscribed_;  // by master address; its lock's
    std::vector<std::function<void()>> reconnected_;

    std::mutex refresh_mutex_;
    std::condition_variable refresh_wanted_;
    bool refresh_now_ = false;
    bool stopping_ = false;
    std::thread refresher_;
};

}  // namespace mcp::detail
