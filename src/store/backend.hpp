#pragma once
// Where a server keeps what outlives one request: memory for one node, Redis for several
// (docs/adr/0011-several-nodes.md). Chosen by --store.
#include <mcp/store/event_journal.hpp>
#include <mcp/store/mailbox.hpp>
#include <mcp/store/session_store.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// Signals between the nodes sharing a store. Pub/sub is only a wake-up: what a signal points
// at (a record, a journal) is in the store, so a node that missed one still converges.
class Cluster {
public:
    virtual ~Cluster() = default;
    virtual void publish(std::string_view topic, std::string_view payload) = 0;
    // Handlers run one at a time on a thread of the cluster's own and may use the store, but not
    // subscribe or unsubscribe. The id is for unsubscribe(), which returns once the handler is
    // not running and never will again.
    virtual std::uint64_t subscribe(std::string topic, std::function<void(std::string_view payload)> handler) = 0;
    virtual void unsubscribe(std::uint64_t id) = 0;
    // After the connection to the store came back: catch up on what may have been missed. The id
    // is for unsubscribe().
    virtual std::uint64_t on_reconnect(std::function<void()> handler) = 0;
    // Sessions subscribed to a resource, on any node.
    virtual std::vector<std::string> subscribers(std::string_view uri) = 0;
};

struct JournalLimits {
    std::size_t events_per_stream = 1000;
    std::size_t bytes_per_stream = 4 * 1024 * 1024;
    std::size_t streams = 40000;
    std::chrono::milliseconds ttl{30 * 60'000};  // shared journals expire with their session
};

class Backend {
public:
    virtual ~Backend() = default;
    // `adopt` makes the local object of a session another node created, when this node first
    // serves it (a shared store only).
    using SessionFactory = std::function<std::shared_ptr<Session>(const std::string& id)>;
    virtual std::unique_ptr<SessionStore> make_session_store(std::size_t max_sessions, std::chrono::milliseconds idle_ttl,
                                                             SessionFactory adopt) = 0;
    virtual std::unique_ptr<EventJournal> make_journal(const JournalLimits& limits) = 0;
    virtual Mailbox& mailbox() = 0;
    // Null when the server is alone (memory).
    virtual Cluster* cluster() = 0;
};

// "memory", or "redis://[[user]:password@]host[:port][/db]". Throws std::invalid_argument for anything
// else. A Redis that is down at startup is not an error: the client keeps trying.
std::shared_ptr<Backend> make_backend(std::string_view url);
// Throws std::invalid_argument when make_backend would, without connecting to anything.
void check_store_url(std::string_view url);

}  // namespace mcp::detail
