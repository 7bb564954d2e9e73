#pragma once
// A 2025-era session's state as a shared store keeps it: what initialize negotiated, its owner,
// log level and resource subscriptions. Calls in flight and streams stay with the node serving them.
#include <mcp/server/session.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

std::string session_record(const Session& session);
// Applies a stored record to a local session object; false when the record is malformed.
bool apply_session_record(Session& session, std::string_view record);

}  // namespace mcp::detail
