#pragma once
// What the core counts (docs/adr/0016-operating-it.md): requests by method, era and outcome; calls
// of each registered tool, prompt and resource with their durations; calls in flight; requests
// parked on a 2025 client. Label values come from the method table, registered names and fixed
// enums only, never from what a client sent: an unregistered name is counted as "unknown".
#include <mcp/protocol/revision.hpp>

#include "util/metrics.hpp"

#include <boost/json/fwd.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::detail {

struct CallState;
struct MethodInfo;
class OperationMetrics;

// How a request ended, as its response shows it.
enum class Outcome : std::uint8_t {
    ok,
    tool_error,      // a result with isError: the tool failed, the protocol did not
    input_required,  // 2026: the client must answer and retry
    cancelled,       // no response: the client cancelled or went away
    invalid_request,
    method_not_found,
    invalid_params,
    internal_error,
    refused,      // an interceptor or a missing scope said no
    unavailable,  // overloaded or the store is away: HTTP 503
    other_error,
};
inline constexpr std::size_t kOutcomes = static_cast<std::size_t>(Outcome::other_error) + 1;
std::string_view to_string(Outcome outcome);

// The outcome a response stands for.
Outcome outcome_of(const boost::json::value& response);
// The outcome of a successful response with this result.
Outcome outcome_of_result(const boost::json::value& result);
// The JSON-RPC error code of a response; 0 when it is not an error with an integer code.
int error_code_of(const boost::json::value& response);

// The series of one registered tool, prompt or resource, made at registration and kept for the
// life of the process (a name registered again finds its series).
class EntityMetrics {
public:
    EntityMetrics(std::string_view kind, std::string name);
    ~EntityMetrics();
    EntityMetrics(const EntityMetrics&) = delete;
    EntityMetrics& operator=(const EntityMetrics&) = delete;
    const std::string& kind() const { return kind_; }
    const std::string& name() const { return name_; }
    void observe(Outcome outcome, std::chrono::nanoseconds duration, std::string_view trace_id) const;
    // A tool's or prompt's series of mcp.server.operation.duration; null for a resource, which the
    // conventions leave to its method's.
    const OperationMetrics* operation() const { return operation_.get(); }

private:
    std::string kind_;
    std::string name_;
    metrics::Histogram& duration_;
    std::unique_ptr<const OperationMetrics> operation_;
    mutable std::array<std::atomic<metrics::Counter*>, kOutcomes> calls_{};  // made on first use
};

// kind: "tool", "prompt" or "resource"; name: the registered name (a resource's URI or template).
const EntityMetrics* entity_metrics(std::string_view kind, std::string_view name);

// A request answered: the request counter of its method, era and outcome, and the series of the
// entity it called. Without an admitted method the method is "unknown".
void count_request(const MethodInfo* method, Era era, Outcome outcome);

// Calls of user code now running (tools, prompts, resources).
metrics::Gauge& calls_in_flight();
// 2025 requests sent to the client whose answer a handler waits for: "elicitation", "sampling",
// "roots".
metrics::Gauge& parked_requests(std::string_view kind);
// Tasks this node started, and ended by status ("completed", "failed", "cancelled"); cancelled is
// counted on the node that served tasks/cancel, failed by a node's death on the node that saw it.
metrics::Counter& tasks_started();
metrics::Counter& tasks_ended(std::string_view status);

}  // namespace mcp::detail
