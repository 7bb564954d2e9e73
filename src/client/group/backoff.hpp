#pragma once
// How long a ClientGroup waits before a server's next attempt (ReconnectPolicy).
#include <mcp/client/group.hpp>

#include <chrono>

namespace mcp::detail {

// The wait before the attempt that follows `failures` failures in a row (1 or more):
// initial_delay * 2^(failures-1), at most max_delay, less `jitter` (0 to 1) times half of it.
std::chrono::milliseconds backoff_delay(const ReconnectPolicy& policy, int failures, double jitter);

}  // namespace mcp::detail
