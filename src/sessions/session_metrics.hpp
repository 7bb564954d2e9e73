#pragma once
// What the session service counts: 2025-era sessions created and expired, streams resumed with
// Last-Event-ID (docs/adr/0016-operating-it.md). Sessions open are read when scraped.
#include "util/metrics.hpp"

namespace mcp::detail {

struct SessionMetrics {
    metrics::Counter& created;
    metrics::Counter& expired;
    metrics::Counter& resumptions;
};

SessionMetrics& session_metrics();

}  // namespace mcp::detail
