#pragma once
// Where the 2025-era sessions that several nodes serve are kept between requests: plain records,
// each with a revision, changed by atomic operations so that changes made at the same time on
// different nodes all survive. A node alone keeps its sessions in memory and needs none of this.
#include <mcp/protocol/types.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct SessionRecord {
    std::string id;
    std::int64_t revision = 0;  // incremented by every change
    LogLevel level = LogLevel::info;
    std::string owner;                          // the subject of the principal that initialized it, "" when anonymous
    std::shared_ptr<const ClientState> client;  // what initialize settled
    std::vector<std::string> subscriptions;     // resource URIs
    std::string charged_to;                     // the client it counts against (util/client_key.hpp)
};

// One change to a session after initialize.
struct SessionChange {
    enum class Kind { log_level, subscribe, unsubscribe };
    Kind kind;
    LogLevel level = LogLevel::info;  // log_level
    std::string uri;                  // subscribe, unsubscribe
};

// Every call throws StoreUnavailable when the store cannot be reached or answers an error.
class SessionRecords {
public:
    virtual ~SessionRecords() = default;
    enum class Insert : unsigned char { inserted, id_taken, client_full };
    // Adds a record at revision 0, unless its client (`charged_to`) holds `max_per_client` sessions
    // already, on any node. It lives for the half-open time until a client's request touches it
    // (initialize alone does not make a session worth keeping).
    virtual Insert insert(const SessionRecord& record, std::size_t max_per_client) = 0;
    // The record, nothing when there is none or it is malformed. `touch` restarts its time to live
    // (a client's request); the server's own lookups leave it running.
    virtual std::optional<SessionRecord> load(std::string_view id, bool touch) = 0;
    // False when there was no such record.
    virtual bool remove(std::string_view id) = 0;
    // The record's new revision, or -1 when it is gone (a deleted session stays deleted).
    virtual std::int64_t apply(std::string_view id, const SessionChange& change) = 0;
    // Whether each of `ids` still has a record, in order.
    virtual std::vector<bool> exist(const std::vector<std::string>& ids) = 0;
    // The sessions subscribed to a resource.
    virtual std::vector<std::string> subscribers(std::string_view uri) = 0;
};

}  // namespace mcp::detail
