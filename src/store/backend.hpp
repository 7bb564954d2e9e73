#pragma once
// Where a server keeps what outlives one request: memory for one node, Redis for several
// (docs/adr/0011-several-nodes.md). Chosen by --store.
#include "store/event_journal.hpp"
#include "store/mailbox.hpp"
#include "store/node_bus.hpp"
#include "store/session_records.hpp"
#include "store/task_store.hpp"

#include <chrono>
#include <memory>
#include <string_view>

namespace mcp::detail {

struct JournalLimits {
    std::size_t events_per_stream = 1000;
    std::size_t bytes_per_stream = 4 * 1024 * 1024;
    std::size_t streams = 40000;
    std::chrono::milliseconds ttl{30 * 60'000};  // shared journals expire with their session
};

class Backend {
public:
    virtual ~Backend() = default;
    // Records that expire when idle for `idle_ttl`, or `half_open_ttl` after they were made when no
    // request touched them since; null when the server is alone (memory).
    virtual std::unique_ptr<SessionRecords> make_session_records(std::chrono::milliseconds idle_ttl,
                                                                 std::chrono::milliseconds half_open_ttl) = 0;
    virtual std::unique_ptr<EventJournal> make_journal(const JournalLimits& limits) = 0;
    virtual Mailbox& mailbox() = 0;
    virtual TaskStore& tasks() = 0;
    // Null when the server is alone (memory).
    virtual NodeBus* bus() = 0;
    // Whether the store answers now (readiness): always for memory; Redis while connected.
    virtual bool reachable() const { return true; }
};

// "memory", "redis://[[user]:password@]host[:port][/db]" or
// "redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/master-name[/db]" (redis_url.hpp).
// Throws std::invalid_argument for anything else. A Redis that is down at startup is not an error:
// the client keeps trying.
std::shared_ptr<Backend> make_backend(std::string_view url);
// Throws std::invalid_argument when make_backend would, without connecting to anything.
void check_store_url(std::string_view url);

}  // namespace mcp::detail
