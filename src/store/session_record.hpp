#pragma once
// A 2025-era session as a shared store keeps it: a revision, the log level, what initialize
// settled (owner, negotiated version, client info and capabilities) and the resource
// subscriptions. Calls in flight and streams stay with the node serving them.
#include <mcp/server/session.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace mcp::detail {

struct StoredSession {
    std::int64_t revision = 0;
    std::string level;   // a log level name
    std::string client;  // JSON, from client_record()
    std::vector<std::string> subscriptions;
};

// What initialize settled, as JSON.
std::string client_record(Session& session);
// Loads a stored session into a local object, unless the object already holds this revision or a
// later one; false when the stored fields are malformed (the object is left as it was).
bool load_stored_session(Session& session, const StoredSession& stored);

}  // namespace mcp::detail
