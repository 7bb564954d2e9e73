#pragma once
// A Redis client on Asio for the shared-state backends: one pipelined command connection and one
// pub/sub connection, on a thread of its own, reconnecting by itself. Calls block the caller (a
// handler or store thread) for at most the command timeout; while Redis is unreachable they fail
// at once with StoreUnavailable, so callers can answer 503 instead of piling up.
#include "store/redis/resp.hpp"

#include <mcp/protocol/errors.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

using mcp::StoreUnavailable;

// redis://[[user]:password@]host[:port][/db]; the host defaults to 127.0.0.1, the port to 6379.
// A user name or password holding '@', ':', '/' or '%' is percent-encoded (%40, %3A, %2F, %25).
struct RedisUrl {
    std::string host = "127.0.0.1";
    std::uint16_t port = 6379;
    int db = 0;
    std::string username;  // an ACL user (Redis 6); empty for the default user
    std::string password;

    // Throws std::invalid_argument naming what is wrong (never echoing the password).
    static RedisUrl parse(std::string_view url);
};

class RedisClient {
public:
    struct Options {
        std::chrono::milliseconds connect_timeout{1000};
        std::chrono::milliseconds command_timeout{1000};
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
    bool connected() const;
    // Waits up to `timeout` for the command connection (startup).
    bool wait_connected(std::chrono::milliseconds timeout) const;

    // Pattern subscriptions, kept across reconnections. Callbacks run on the client's thread and
    // must not block. Once a pattern is subscribed, `on_reconnect` runs whenever both connections
    // (commands and subscription) are live again after either was established or lost, so
    // callers can catch up on what they missed: they can then read the store and will hear every
    // later wake-up.
    void psubscribe(std::string pattern, Callback callback);
    void on_reconnect(std::function<void()> callback);

    struct Impl;

private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp::detail
