#pragma once
// What the node's bounds refuse and take back (docs/adr/0024-fair-limits.md), said to the
// operator: a counter labelled by the bound and by which limit refused (never by client, so the
// series stay bounded), and a warning line at most every 10 s per bound and limit, naming the
// last client refused and how many were refused since the previous line.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mcp::detail {

enum class Bound : std::uint8_t {
    connections,     // HTTP connections
    sessions,        // 2025-era sessions
    get_streams,     // 2025-era GET streams (listens and resumptions)
    listen_streams,  // 2026 subscriptions/listen streams
    parked_calls,    // 2025-era calls waiting for their clients' answers
    calls,           // calls of user code queued or running
    tasks,           // tasks within their time to live
};
inline constexpr std::size_t kBounds = 7;

// Which limit refused: the client's own, or the node's in all (no client above its share).
enum class Limit : std::uint8_t { client, total };

std::string_view to_string(Bound bound);

// A newcomer refused at a limit.
void report_refusal(Bound bound, Limit limit, std::string_view client);
// A client's resource ended to serve another at the bound in all (it held more than its share).
void report_eviction(Bound bound, std::string_view client);

}  // namespace mcp::detail
