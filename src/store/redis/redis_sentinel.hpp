#pragma once
// Redis Sentinel, as its client guidelines describe
// (https://redis.io/docs/latest/develop/reference/sentinel-clients/): ask the sentinels in turn
// where the master is, and listen to one of them for +switch-master, the news of a failover.
// Lives on the Redis client's thread.
#include "store/redis/redis_connection.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

namespace mcp::detail {

// The master's address in a reply to SENTINEL GET-MASTER-ADDR-BY-NAME; nothing for a nil reply
// (a master the sentinel does not know), an error or anything malformed.
std::optional<RedisAddress> master_address(const RespValue& reply);
// The new address in a +switch-master message ("<name> <old-ip> <old-port> <new-ip> <new-port>")
// about `master_name`; nothing for another master or a malformed message.
std::optional<RedisAddress> switched_master(std::string_view message, std::string_view master_name);
// Whether a ROLE reply says "master".
bool says_master(const RespValue& role);

class SentinelSet {
public:
    // `tls`: for the sentinels as for the master (rediss-sentinel://).
    SentinelSet(boost::asio::io_context& ioc, RedisUrl::Sentinels sentinels, std::chrono::milliseconds timeout,
                RedisTls tls);

    const std::string& master_name() const { return config_.master_name; }
    std::size_t size() const { return config_.nodes.size(); }

    // Asks the sentinels in turn; the first that knows the master moves to the front of the list,
    // so it is asked first next time. Nothing when none knows or answers.
    boost::asio::awaitable<std::optional<RedisAddress>> master();

    // Until close(): listens to one sentinel at a time for +switch-master about our master, moving
    // on to the next when it goes away, and calls `switched` with each new address. Each time it
    // starts listening it also asks where the master is and calls `switched` with the answer: a
    // failover may have happened while nobody listened.
    boost::asio::awaitable<void> watch(std::function<void(const RedisAddress&)> switched);
    void close();
    // Why the last sentinel asked could not be reached over TLS; empty when it could.
    const std::string& tls_failure() const { return tls_failure_; }

private:
    boost::asio::awaitable<std::optional<RedisAddress>> ask(const RedisAddress& sentinel);
    boost::asio::awaitable<void> listen(const RedisAddress& sentinel,
                                        const std::function<void(const RedisAddress&)>& switched);
    RedisCommands hello() const;

    boost::asio::io_context& ioc_;
    RedisUrl::Sentinels config_;
    std::chrono::milliseconds timeout_;
    RedisTls tls_;
    std::unique_ptr<RedisStream> watching_;
    bool closed_ = false;
    std::string tls_failure_;
};

}  // namespace mcp::detail
