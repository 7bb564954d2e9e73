#pragma once
// The application's watchers of resource subscriptions (Server::watch_resource_subscriptions): each
// is told when a client starts hearing of a URI, and its release runs when that client stops.
#include <mcp/server/server.hpp>

#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace mcp::detail {

class ResourceWatchers {
public:
    void add(ResourceWatcher watcher);
    // Asks every watcher about `uri`; what they return runs when the result is destroyed. Null when
    // none returned anything. A watcher that throws refuses the subscription: the releases of those
    // asked before it run, and the error goes on.
    std::shared_ptr<void> watch(std::string_view uri);

private:
    std::mutex mutex_;
    std::vector<std::shared_ptr<const ResourceWatcher>> watchers_;
};

}  // namespace mcp::detail
