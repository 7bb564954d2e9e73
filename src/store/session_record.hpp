#pragma once
// A 2025-era session's state as a shared store keeps it: what initialize negotiated, its owner,
// log level and resource subscriptions. Calls in flight and streams stay with the node serving them.
#include <mcp/server/session.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

// The record, stamped with `revision` (which the session then holds as its own).
std::string session_record(Session& session, std::int64_t revision);
// Applies a stored record to a local session object unless the object already holds this
// revision or a later one; false when the record is malformed.
bool apply_session_record(Session& session, std::string_view record);
// The revision of a record, -1 when it is malformed.
std::int64_t session_record_revision(std::string_view record);

}  // namespace mcp::detail
