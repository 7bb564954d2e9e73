#pragma once
// What the session service counts: 2025-era sessions created and expired, streams resumed with
// Last-Event-ID, and how long sessions lasted (docs/adr/0016-operating-it.md). Sessions open are
// read when scraped.
#include "util/metrics.hpp"

#include <chrono>
#include <cstdint>
#include <string_view>

namespace mcp::detail {

struct SessionMetrics {
    metrics::Counter& created;
    metrics::Counter& expired;
    metrics::Counter& resumptions;
};

SessionMetrics& session_metrics();

// How a session ended on this node: closed (the client's DELETE, here or on another node, or its
// record found gone), timed out (idle or half-open past its time), or evicted to make room for
// another client's.
enum class SessionEnd : std::uint8_t { closed, timed_out, evicted };

// mcp.server.session.duration of the OpenTelemetry MCP semantic conventions, as the histogram
// mcp_server_session_duration_seconds{error_type, mcp_protocol_version}: from when this node began
// to hold the session (it created it, or first served it) to its end here. error_type is empty for
// a closed session, else "timeout" or "evicted"; the version is one the server speaks, or empty.
void observe_session_end(SessionEnd how, std::string_view protocol_version, std::chrono::nanoseconds held);

}  // namespace mcp::detail
