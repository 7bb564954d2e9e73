#pragma once
// Opening a connection to a Redis server or a sentinel and asking it a few things, each step within
// a time limit: a host that accepts connections but never answers (a stopped process still has its
// listening socket) must not hold the client's thread. For the client's own thread only.
#include "store/redis/redis_stream.hpp"
#include "store/redis/redis_url.hpp"
#include "store/redis/resp.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {

using RedisCommands = std::vector<std::vector<std::string>>;

// Whether a connection was made; if not, why, when it is worth telling (a refused certificate).
struct Connected {
    bool ok = false;
    std::string tls_failure;
    explicit operator bool() const { return ok; }
};

// Connects within `timeout`, with TCP_NODELAY and probes that end the connection when the peer
// vanishes without a word. Over TLS the handshake is within `timeout` too, the server's
// certificate checked for the address's host (or the name the store gives instead).
boost::asio::awaitable<Connected> connect_to(RedisStream& stream, const RedisAddress& address,
                                             std::chrono::milliseconds timeout);

// Sends `commands` and reads one reply to each within `timeout`. Nothing when the connection
// fails, the time runs out or the peer breaks the protocol. Bytes read beyond the last reply stay
// in `parser`.
boost::asio::awaitable<std::optional<std::vector<RespValue>>> exchange(RedisStream& stream, RespParser& parser,
                                                                       const RedisCommands& commands,
                                                                       std::chrono::milliseconds timeout);

// AUTH [user] password, when there is a password.
void add_auth(RedisCommands& commands, const std::string& username, const std::string& password);

}  // namespace mcp::detail
