#include "server/call_observer.hpp"

#include "server/audit_log.hpp"
#include "server/call.hpp"
#include "server/call_span.hpp"
#include "server/core.hpp"
#include "server/dispatch.hpp"
#include "server/operation_metrics.hpp"
#include "server/scope_guard.hpp"

namespace mcp::detail {

namespace {

// The kind of entity a user-code method calls; empty for the others.
std::string_view entity_kind(std::string_view method) {
    if (method == "tools/call") return "tool";
    if (method == "prompts/get") return "prompt";
    if (method == "resources/read") return "resource";
    return {};
}

// A call that never reached its method (refused, or the name is not registered): the entity is
// looked up here, off the hot path. A resource read through a template counts as the template.
const EntityMetrics* find_entity(const ServerCore& core, std::string_view kind, std::string_view name) {
    if (kind == "tool") {
        if (auto e = core.catalog.tools.find(name)) return e->metrics;
    } else if (kind == "prompt") {
        if (auto e = core.catalog.prompts.find(name)) return e->metrics;
    } else if (auto e = core.catalog.resources.find(name)) {
        return e->metrics;
    } else {
        for (const auto& t : core.catalog.templates.in_order()) {
            if (t->matcher.match(name)) return t->metrics;
        }
    }
    return entity_metrics(kind, "unknown");
}

}  // namespace

void observe_answer(CallState& call, Era era, Outcome outcome, int error_code, const boost::json::value* response) {
    call.in_flight.reset();
    end_server_span(call, outcome, error_code, response);
    const bool counting = metrics::enabled();
    auto* audit = call.core.audit.get();
    if (!counting && audit == nullptr) return;
    const auto duration = std::chrono::steady_clock::now() - call.received;
    // A request refused before its method was admitted still names one the table may know.
    const MethodInfo* info = call.method != nullptr ? call.method->info : find_method_info(call.message.method);
    const auto kind = info != nullptr ? entity_kind(info->name) : std::string_view();
    const EntityMetrics* entity = kind.empty()             ? nullptr
                                  : call.entity != nullptr ? call.entity
                                                           : find_entity(call.core, kind, target_of(call));
    if (counting) {
        count_request(info, era, outcome);
        const auto* operation = entity != nullptr ? entity->operation() : nullptr;
        const auto version = call.exchange ? call.exchange->protocol_version() : std::string_view();
        (operation != nullptr ? *operation : method_operation_metrics(info))
            .observe(outcome, error_code, version, duration);
        if (entity != nullptr) entity->observe(outcome, duration, call.trace.trace_id);
    }
    // The audit names what the client asked for (bounded and escaped there): the URI read, or a
    // name nothing is registered under, which metrics count as "unknown".
    if (audit != nullptr && entity != nullptr) audit->record(call, kind, target_of(call), outcome, duration);
}

void observe_answer(CallState& call, Era era, const boost::json::value& response) {
    observe_answer(call, era, outcome_of(response), error_code_of(response), &response);
}

}  // namespace mcp::detail
