#pragma once
// A mount's resource subscriptions (docs/adr/0029-gateway.md, decision 13): the outer clients that
// hear of an inner URI, counted, and the one inner subscription they share while there are any.
#include <mcp/client/client.hpp>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace mcp::detail {

class MountSubscriptions {
public:
    using ClientSource = std::function<std::shared_ptr<Client>()>;
    MountSubscriptions(std::string prefix, ClientSource client);
    ~MountSubscriptions();
    MountSubscriptions(const MountSubscriptions&) = delete;
    MountSubscriptions& operator=(const MountSubscriptions&) = delete;

    // One more outer client hears of `inner_uri`; the first subscribes the inner server to it.
    // Throws mcp::Error, without waiting, when the inner server is not connected or did not declare
    // resources.subscribe. Never blocks: the inner subscribe is sent by the mount's own thread.
    void add(const std::string& inner_uri);
    // Whether the inner server is connected and declared resources.subscribe.
    bool supported() const;
    // One fewer; the last unsubscribes the inner server. A URI no one holds is ignored.
    void remove(std::string_view inner_uri);
    // Outer clients holding `inner_uri` now.
    std::size_t holders(std::string_view inner_uri) const;
    // Ends the thread and the inner subscriptions (the mount is going).
    void stop();

private:
    struct Change {
        std::string inner_uri;
        bool subscribe = false;
    };
    void run(const std::stop_token& stop);
    void apply(const Change& change);

    const std::string prefix_;
    const ClientSource client_;

    mutable std::mutex mutex_;
    std::condition_variable_any changed_;
    std::map<std::string, std::size_t, std::less<>> holders_;
    std::deque<Change> pending_;
    bool stopped_ = false;

    // The worker's own: the inner subscriptions held now, by inner URI.
    std::map<std::string, Subscription, std::less<>> inner_;
    std::jthread worker_;  // started by the first add
};

}  // namespace mcp::detail
