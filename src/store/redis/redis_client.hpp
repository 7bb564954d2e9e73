#pragma once
// A Redis client on Asio for the shared-state backends: one pipelined command connection and one
// pub/sub connection, on a thread of its own, reconnecting by itself. Calls block the caller (a
// handler or store thread) for at most the command timeout; while Redis is unreachable they fail
// at once with StoreUnavailable, so callers can answer 503 instead of piling up.
// Through Sentinel (redis-sentinel://), both connections go to the master the sentinels name, whose
// ROLE must say so, and follow it when it fails over; a READONLY reply (the server became a
// replica) drops the connection, which then finds the master again.
// On Redis Cluster (redis-cluster://), a client of this kind per master does that for its node,
// and RedisCluster (redis_cluster.hpp) sends each command to the master of its key's slot.
#include "store/redis/redis_url.hpp"
#include "store/redis/resp.hpp"

#include <mcp/protocol/errors.hpp>

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

using mcp::StoreUnavailable;

class RedisClient {
public:
    struct Options {
        std::chrono::milliseconds connect_timeout{1000};
        std::chrono::milliseconds command_timeout{1000};
        // How long pipeline_replicated() waits for one replica to acknowledge its writes (WAIT 1);
        // zero: it does not wait.
        std::chrono::milliseconds replica_wait{0};
    };
    using Callback = std::function<void(std::string_view channel, std::string_view message)>;

    RedisClient(RedisUrl url, Options options);
    ~RedisClient();
    RedisClient(const RedisClient&) = delete;
    RedisClient& operator=(const RedisClient&) = delete;

    // One command; error replies come back as RespValue::Type::error.
    RespValue command(std::vector<std::string> args);
    // Several commands in one round trip, replies in order.
    std::vector<RespValue> pipeline(const std::vector<std::vector<std::string>>& commands);
    // The same, for writes a client is told of and cannot make again (a session it was given, an
    // answer it delivered): the round trip ends once a replica has them too (WAIT 1), or after
    // `replica_wait` when none acknowledges; then it stops waiting for replicas for a while, so a
    // replica that is down costs the node one wait, not one per write. These writes go on a
    // connection of their own, where one WAIT at a time covers all the writes made meanwhile:
    // other commands never queue behind a WAIT.
    std::vector<RespValue> pipeline_replicated(const std::vector<std::vector<std::string>>& commands);
    bool connected() const;
    // Why connections fail over TLS (a refused certificate, a port without TLS), for a clear
    // error at startup; empty while they do not, or since one succeeded.
    std::string tls_failure() const;
    // Waits up to `timeout` for the command connections (startup).
    bool wait_connected(std::chrono::milliseconds timeout) const;

    // Channels, kept across reconnections: SUBSCRIBE, or on Redis Cluster SSUBSCRIBE on the master
    // of each channel's slot, followed when the slot moves. Callbacks run on a client thread and
    // must not block. Once subscribed, `on_reconnect` runs whenever the command and subscription
    // connections are live again after either was established or lost, so callers can catch up on
    // what they missed: they can then read the store and will hear every later wake-up.
    void subscribe(const std::vector<std::string>& channels, Callback callback);
    // PUBLISH, or SPUBLISH on Redis Cluster; throws StoreUnavailable, for an error reply too.
    void publish(const std::string& channel, const std::string& message);
    // How many channels a caller spreading its messages over the slots should use: 1 on one Redis.
    unsigned channel_shards() const;
    void on_reconnect(std::function<void()> callback);

    // For RedisCluster, on the client of one master: the subscribe commands (SSUBSCRIBE, one per
    // slot) that replace the current ones; `on_dropped` runs when the server ends a subscription of
    // its own accord (the slot moved).
    void set_subscriptions(std::vector<std::vector<std::string>> commands, Callback on_message,
                           std::function<void()> on_dropped);
    // For RedisCluster: `commands` sent without waiting; throws StoreUnavailable at once when the
    // connection is down (then nothing was sent).
    std::future<std::vector<RespValue>> send(const std::vector<std::vector<std::string>>& commands);
    std::chrono::milliseconds command_timeout() const;

    struct Impl;

private:
    std::shared_ptr<Impl> impl_;
    std::unique_ptr<class RedisCluster> cluster_;
};

// Channels per topic on Redis Cluster: enough to spread signals over three to a dozen masters.
constexpr unsigned kClusterChannelShards = 16;

}  // namespace mcp::detail
