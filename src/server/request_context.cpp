#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/request_context.hpp>

#include "json/text_writer.hpp"
#include "server/call.hpp"
#include "server/request_context_impl.hpp"
#include "util/log.hpp"

#include <mutex>

namespace mcp {

namespace {

thread_local TraceContext current_trace_;
thread_local LogFields current_fields_;
// The call whose log fields current_fields_ stands for until they are first read.
thread_local const detail::CallState* fields_source_ = nullptr;

LogFields log_fields_of(const detail::CallState& call) {
    LogFields fields;
    fields.reserve(5);  // one allocation, not one per growth
    fields.emplace_back("mcp.request.id", detail::json_text(call.message.id));
    fields.emplace_back("mcp.method", call.message.method);
    if (call.session && !call.session->id().empty()) fields.emplace_back("mcp.session", call.session->id());
    if (const auto& name = call.exchange->client_info().name; !name.empty()) fields.emplace_back("mcp.client", name);
    if (const auto& principal = call.exchange->principal()) fields.emplace_back("mcp.principal", principal->subject);
    return fields;
}

LogFields& log_fields() {
    if (fields_source_ != nullptr) current_fields_ = log_fields_of(*std::exchange(fields_source_, nullptr));
    return current_fields_;
}

}  // namespace

const TraceContext& current_trace() { return current_trace_; }
const LogFields& current_log_fields() { return log_fields(); }

namespace detail {

namespace {

// The JSON log line of a thread serving a request carries the request's fields.
void write_log_context(LogFieldSink add, void* line) {
    for (const auto& [name, value] : log_fields()) add(line, name, value);
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
        registry.add_thread_local<LogFields>("mcp.log_fields", []() -> LogFields& { return log_fields(); });
    });
}

RequestContextScope::RequestContextScope(const CallState& call)
    : saved_trace_(std::exchange(current_trace_, call.trace)),
      saved_fields_(std::exchange(current_fields_, {})),
      saved_source_(std::exchange(fields_source_, &call)) {}

RequestContextScope::~RequestContextScope() {
    current_trace_ = std::move(saved_trace_);
    current_fields_ = std::move(saved_fields_);
    fields_source_ = saved_source_;
}

}  // namespace detail
}  // namespace mcp
