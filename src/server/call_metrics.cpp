#include "server/call_metrics.hpp"

#include "protocol/methods.hpp"
#include "server/operation_metrics.hpp"

#include <mcp/protocol/errors.hpp>

#include <boost/json/value.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace mcp::detail {

namespace {

using metrics::Type;

constexpr std::string_view kOutcomeNames[kOutcomes] = {"ok",
                                                       "tool_error",
                                                       "input_required",
                                                       "cancelled",
                                                       "invalid_request",
                                                       "method_not_found",
                                                       "invalid_params",
                                                       "internal_error",
                                                       "refused",
                                                       "unavailable",
                                                       "other_error"};

metrics::Family& calls_family() {
    static auto& family =
        metrics::registry().family("mcp_calls_total", "Calls of registered tools, prompts and resources, by outcome",
                                   Type::counter, {"kind", "name", "outcome"});
    return family;
}

metrics::Family& duration_family() {
    static auto& family = metrics::registry().family(
        "mcp_call_duration_seconds", "Time from receiving a tools/call, prompts/get or resources/read to its answer",
        Type::histogram, {"kind", "name"}, metrics::latency_buckets());
    return family;
}

// Requests by method (the method table's index, or the last slot for an unknown method), era and
// outcome.
struct RequestCounters {
    metrics::Family& family = metrics::registry().family(
        "mcp_requests_total", "JSON-RPC requests answered, by method, protocol era and outcome", Type::counter,
        {"method", "era", "outcome"});
    std::vector<std::array<std::array<std::atomic<metrics::Counter*>, kOutcomes>, 2>> slots =
        std::vector<std::array<std::array<std::atomic<metrics::Counter*>, kOutcomes>, 2>>(all_methods().size() + 1);
};

RequestCounters& request_counters() {
    static RequestCounters counters;
    return counters;
}

}  // namespace

std::string_view to_string(Outcome outcome) { return kOutcomeNames[static_cast<std::size_t>(outcome)]; }

Outcome outcome_of(const boost::json::value& response) {
    const auto* o = response.if_object();
    if (o == nullptr) return Outcome::other_error;
    if (o->contains("error")) {
        switch (error_code_of(response)) {
            case error_code::parse_error:
            case error_code::invalid_request: return Outcome::invalid_request;
            case error_code::method_not_found: return Outcome::method_not_found;
            case error_code::invalid_params: return Outcome::invalid_params;
            case error_code::internal_error: return Outcome::internal_error;
            default: return Outcome::other_error;
        }
    }
    const auto* result = o->if_contains("result");
    return result != nullptr ? outcome_of_result(*result) : Outcome::ok;
}

Outcome outcome_of_result(const boost::json::value& result) {
    const auto* r = result.if_object();
    if (r == nullptr) return Outcome::ok;
    if (const auto* is_error = r->if_contains("isError");
        is_error != nullptr && is_error->is_bool() && is_error->get_bool()) {
        return Outcome::tool_error;
    }
    if (const auto* type = r->if_contains("resultType");
        type != nullptr && type->is_string() && type->get_string() == "input_required") {
        return Outcome::input_required;
    }
    return Outcome::ok;
}

int error_code_of(const boost::json::value& response) {
    const auto* o = response.if_object();
    const auto* error = o != nullptr ? o->if_contains("error") : nullptr;
    const auto* e = error != nullptr ? error->if_object() : nullptr;
    const auto* code = e != nullptr ? e->if_contains("code") : nullptr;
    return code != nullptr && code->is_int64() ? static_cast<int>(code->get_int64()) : 0;
}

namespace {

std::unique_ptr<const OperationMetrics> operation_of(std::string_view kind, const std::string& name) {
    if (kind == "tool") return std::make_unique<OperationMetrics>("tools/call", name, "");
    if (kind == "prompt") return std::make_unique<OperationMetrics>("prompts/get", "", name);
    return nullptr;
}

}  // namespace

EntityMetrics::EntityMetrics(std::string_view kind, std::string name)
    : kind_(kind),
      name_(std::move(name)),
      duration_(duration_family().histogram({kind_, name_})),
      operation_(operation_of(kind_, name_)) {}

EntityMetrics::~EntityMetrics() = default;

void EntityMetrics::observe(Outcome outcome, std::chrono::nanoseconds duration, std::string_view trace_id) const {
    const auto index = static_cast<std::size_t>(outcome);
    // The labels are built on the series' first use only.
    metrics::resolve_once(calls_[index], [&]() -> metrics::Counter& {
        return calls_family().counter({kind_, name_, std::string(kOutcomeNames[index])});
    }).add();
    duration_.observe(duration, trace_id);
}

const EntityMetrics* entity_metrics(std::string_view kind, std::string_view name) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, std::unique_ptr<EntityMetrics>, std::less<>> known;
    std::lock_guard lock(mutex);
    // Beyond the families' bound the names fold into "other", as the families themselves do.
    const bool full = known.size() >= metrics::Family::kMaxSeries;
    const std::string label = full ? "other" : std::string(name);
    auto key = std::make_pair(std::string(kind), label);
    auto it = known.find(key);
    if (it == known.end()) it = known.emplace(key, std::make_unique<EntityMetrics>(kind, label)).first;
    return it->second.get();
}

void count_request(const MethodInfo* method, Era era, Outcome outcome) {
    auto& counters = request_counters();
    const auto methods = all_methods();
    const std::size_t m = method != nullptr ? static_cast<std::size_t>(method - methods.data()) : methods.size();
    const std::size_t e = era == Era::stateless ? 1 : 0;
    const std::size_t o = static_cast<std::size_t>(outcome);
    auto& slot = counters.slots[m][e][o];
    metrics::resolve_once(slot, [&]() -> metrics::Counter& {
        const std::string method_label = method != nullptr ? std::string(method->name) : "unknown";
        return counters.family.counter({method_label, e == 1 ? "2026" : "2025", std::string(kOutcomeNames[o])});
    }).add();
}

metrics::Gauge& calls_in_flight() {
    static auto& gauge =
        metrics::registry().family("mcp_calls_in_flight", "Calls of user code running now", Type::gauge).gauge({});
    return gauge;
}

metrics::Gauge& parked_requests(std::string_view kind) {
    static auto& family = metrics::registry().family(
        "mcp_parked_client_requests",
        "Requests sent to a 2025-era client (elicitation, sampling, roots) whose answer a handler waits for",
        Type::gauge, {"kind"});
    static auto& elicitation = family.gauge({"elicitation"});
    static auto& sampling = family.gauge({"sampling"});
    static auto& roots = family.gauge({"roots"});
    if (kind == "sampling") return sampling;
    if (kind == "roots") return roots;
    return elicitation;
}

metrics::Counter& tasks_started() {
    static auto& counter = metrics::registry()
                               .family("mcp_tasks_started_total", "Tool calls that became tasks", Type::counter)
                               .counter({});
    return counter;
}

metrics::Counter& tasks_ended(std::string_view status) {
    static auto& family =
        metrics::registry().family("mcp_tasks_ended_total", "Tasks that ended, by status", Type::counter, {"status"});
    static auto& completed = family.counter({"completed"});
    static auto& failed = family.counter({"failed"});
    static auto& cancelled = family.counter({"cancelled"});
    if (status == "completed") return completed;
    if (status == "failed") return failed;
    return cancelled;
}

}  // namespace mcp::detail
