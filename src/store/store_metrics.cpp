#include "store/store_metrics.hpp"

namespace mcp::detail {

StoreMetrics& store_metrics() {
    using metrics::Type;
    auto& r = metrics::registry();
    static StoreMetrics m{
        r.family("mcp_store_command_duration_seconds", "Round trips to Redis: a command or a pipeline of them",
                 Type::histogram, {}, metrics::latency_buckets())
            .histogram({}),
        r.family("mcp_store_errors_total", "Round trips to Redis that failed: unreachable, connection lost, timed out",
                 Type::counter)
            .counter({}),
        r.family("mcp_store_reconnects_total", "Connections to Redis made again after one was lost", Type::counter)
            .counter({}),
        r.family("mcp_store_wakeups_total", "Pub/sub messages received from other nodes", Type::counter).counter({}),
        r.family("mcp_store_unavailable_responses_total",
                 "Requests answered 503 because the store could not be reached", Type::counter)
            .counter({})};
    return m;
}

}  // namespace mcp::detail
