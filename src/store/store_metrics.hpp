#pragma once
// What the shared store counts (docs/adr/0016-operating-it.md): Redis command round trips and
// their failures, reconnections, pub/sub wake-ups between nodes, and the 503s served because the
// store was away.
#include "util/metrics.hpp"

namespace mcp::detail {

struct StoreMetrics {
    metrics::Histogram& command_seconds;  // one round trip: a command or a pipeline
    metrics::Counter& errors;             // round trips that failed: unreachable, lost, timed out
    metrics::Counter& reconnects;
    metrics::Counter& wakeups;      // pub/sub messages from other nodes
    metrics::Counter& unavailable;  // requests answered 503 because the store was away
};

StoreMetrics& store_metrics();

}  // namespace mcp::detail
