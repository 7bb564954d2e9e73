#pragma once
// mcp.server.operation.duration of the OpenTelemetry MCP semantic conventions, as the Prometheus
// histogram mcp_server_operation_duration_seconds (docs/adr/0016-operating-it.md, "The semantic
// conventions' metrics"). Its labels are the attributes with dots as underscores; every value comes
// from the method table, a registered tool or prompt name, the revisions served or a fixed list of
// error types, never from what a client sent.
#include "server/call_metrics.hpp"

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// The series of one method, or of one registered tool or prompt, each made on its first use: an
// observation is a few comparisons, one load and the histogram's adds.
class OperationMetrics {
public:
    // tool or prompt: the registered name (gen_ai.tool.name, gen_ai.prompt.name), or empty.
    OperationMetrics(std::string_view method, std::string_view tool, std::string_view prompt);

    // error_code: the JSON-RPC error code of the answer, 0 when it has none.
    void observe(Outcome outcome, int error_code, std::string_view protocol_version,
                 std::chrono::nanoseconds duration) const;

private:
    metrics::Histogram& make(std::size_t error_type, std::size_t version) const;

    std::string method_;
    std::string tool_;
    std::string prompt_;
    // One slot per error type × protocol version.
    mutable std::vector<std::atomic<metrics::Histogram*>> series_;
};

// The series of a method whose labels name no tool or prompt; null: a method the table lacks.
const OperationMetrics& method_operation_metrics(const MethodInfo* method);

}  // namespace mcp::detail
