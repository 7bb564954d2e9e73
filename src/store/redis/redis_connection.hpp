#pragma once
// Opening a connection to a Redis server or a sentinel and asking it a few things, each step within
// a time limit: a host that accepts connections but never answers (a stopped process still has its
// listening socket) must not hold the client's thread. For the client's own thread only.
#include "store/redis/redis_url.hpp"
#include "store/redis/resp.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {

using RedisCommands = std::vector<std::vector<std::string>>;

// Connects within `timeout`, with TCP_NODELAY and probes that end the connection when the peer
// vanishes without a word.
boost::asio::awaitable<bool> connect_to(boost::asio::ip::tcp::socket& socket, const RedisAddress& address,
                                        std::chrono::milliseconds timeout);

// Sends `commands` and reads one reply to each within `timeout`. Nothing when the connection
// fails, the time runs out or the peer breaks the protocol. Bytes read beyond the last reply stay
// in `parser`.
boost::asio::awaitable<std::optional<std::vector<RespValue>>> exchange(boost::asio::ip::tcp::socket& socket,
                                                                       RespParser& parser,
                                                                       const RedisCommands& commands,
                                                                       std::chrono::milliseconds timeout);

// AUTH [user] password, when there is a password.
void add_auth(RedisCommands& commands, const std::string& username, const std::string& password);

}  // namespace mcp::detail
