#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/request_context.hpp>

#include "server/request_context_impl.hpp"
#include "util/log.hpp"

#include <mutex>

namespace mcp {

namespace {
thread_local TraceContext current_trace_;
thread_local LogFields current_fields_;
}  // namespace

const TraceContext& current_trace() { return current_trace_; }
const LogFields& current_log_fields() { return current_fields_; }

namespace detail {

namespace {

// The JSON log line of a thread serving a request carries the request's fields.
void write_log_context(LogFieldSink add, void* line) {
    for (const auto& [name, value] : current_fields_) add(line, name, value);
    if (!current_trace_.trace_id.empty()) {
        add(line, "trace_id", current_trace_.trace_id);
        add(line, "span_id", current_trace_.span_id);
    }
}

}  // namespace

void register_request_context_accessors() {
    static std::once_flag once;
    std::call_once(once, [] {
        set_log_context_source(&write_log_context);
        auto& registry = ContextRegistry::global();
        registry.add_thread_local<TraceContext>("mcp.trace", []() -> TraceContext& { return current_trace_; });
        registry.add_thread_local<LogFields>("mcp.log_fields", []() -> LogFields& { return current_fields_; });
    });
}

RequestContextScope::RequestContextScope(TraceContext trace, LogFields fields)
    : saved_trace_(std::exchange(current_trace_, std::move(trace))),
      saved_fields_(std::exchange(current_fields_, std::move(fields))) {}

RequestContextScope::~RequestContextScope() {
    current_trace_ = std::move(saved_trace_);
    current_fields_ = std::move(saved_fields_);
}

}  // namespace detail
}  // namespace mcp
