#pragma once
// Signals between the nodes sharing a store. Pub/sub is only a wake-up: what a signal points at
// (a record, a journal) is in the store, so a node that missed one still converges.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace mcp::detail {

class NodeBus {
public:
    virtual ~NodeBus() = default;
    // This node's random name, for signals that its own handlers must tell apart.
    virtual const std::string& node_id() const = 0;
    // Throws StoreUnavailable when the store cannot be reached.
    virtual void publish(std::string_view topic, std::string_view payload) = 0;
    // Handlers run one at a time on a thread of the bus's own and may use the store, but not
    // subscribe or unsubscribe. The id is for unsubscribe(), which returns once the handler is
    // not running and never will again.
    virtual std::uint64_t subscribe(std::string topic, std::function<void(std::string_view payload)> handler) = 0;
    virtual void unsubscribe(std::uint64_t id) = 0;
    // After the connection to the store came back: catch up on what may have been missed. The id
    // is for unsubscribe().
    virtual std::uint64_t on_reconnect(std::function<void()> handler) = 0;
};

}  // namespace mcp::detail
