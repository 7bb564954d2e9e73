#pragma once
// The rendezvous of a 2025-era server-to-client request: the handler waits on a key, and the
// client's response, POSTed on any connection (on any node, with a shared mailbox), is delivered
// to it.
#include <boost/json/value.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <string_view>

namespace mcp::detail {

class Mailbox {
public:
    virtual ~Mailbox() = default;
    // Starts expecting a value for `key`, before the request goes out. Slots not collected
    // within `ttl` are dropped.
    virtual void open(std::string_view key, std::chrono::milliseconds ttl) = 0;
    // The delivered value, or nothing when `deadline` passed or `stop` was requested first.
    // Closes the slot either way.
    virtual std::optional<boost::json::value> wait(std::string_view key, std::chrono::steady_clock::time_point deadline,
                                                   std::stop_token stop) = 0;
    // False when no slot is open for `key` (never asked, already answered, timed out).
    virtual bool deliver(std::string_view key, boost::json::value value) = 0;
};

std::unique_ptr<Mailbox> make_memory_mailbox();

}  // namespace mcp::detail
