#include "client/client_span.hpp"

#include "client/envelope.hpp"

#include "telemetry/ids.hpp"
#include "telemetry/sampler.hpp"
#include "telemetry/traceparent.hpp"
#include "telemetry/tracer.hpp"

#include <mcp/client/errors.hpp>
#include <mcp/client/options.hpp>
#include <mcp/protocol/errors.hpp>

namespace mcp::detail {

namespace {

using telemetry::SpanData;

// The tool or prompt a request names: its span's target (the MCP conventions' `{method} {target}`).
std::string_view named_target(std::string_view method, const boost::json::object& params) {
    if (method != "tools/call" && method != "prompts/get") return {};
    const auto* name = params.if_contains("name");
    return name != nullptr && name->is_string() ? std::string_view(name->get_string()) : std::string_view();
}

void record_failure(SpanData& span, const std::exception_ptr& error) {
    span.status = telemetry::StatusCode::error;
    try {
        std::rethrow_exception(error);
    } catch (const Error& e) {  // the server's JSON-RPC error
        span.set("error.type", std::to_string(e.code()));
        span.set("rpc.response.status_code", std::to_string(e.code()));
        span.status_message = e.message();
    } catch (const RequestTimeout& e) {
        span.set("error.type", "timeout");
        span.status_message = e.what();
    } catch (const Cancelled& e) {
        span.set("error.type", "cancelled");
        span.status_message = e.what();
    } catch (const std::exception& e) {
        span.set("error.type", "transport");
        span.status_message = e.what();
    } catch (...) {
        span.set("error.type", "_OTHER");
    }
}

}  // namespace

void pass_trace_on(const CallOptions::Trace& trace, RequestSpec& spec) {
    if (!telemetry::parse_traceparent(trace.traceparent)) return;  // not well-formed: not passed on
    spec.trace = trace_members(trace.traceparent, trace.tracestate);
}

std::unique_ptr<SpanData> begin_client_span(const telemetry::Tracer& tracer, std::string_view method,
                                            const CallOptions& options, const boost::json::object& params,
                                            RequestSpec& spec) {
    const auto parent = options.trace ? telemetry::parse_traceparent(options.trace->traceparent) : std::nullopt;
    const auto trace_id = parent ? parent->trace_id : telemetry::random_trace_id();
    const auto span_id = telemetry::random_span_id();
    const auto parent_sampled = parent ? std::optional<bool>((parent->flags & 1) != 0) : std::nullopt;
    const bool sampled = telemetry::should_sample(tracer.sampler(), parent_sampled, trace_id);
    const std::string_view tracestate = parent ? std::string_view(options.trace->tracestate) : std::string_view();
    spec.trace = trace_members(telemetry::format_traceparent(trace_id, span_id, sampled), tracestate);
    if (!sampled) return nullptr;

    auto span = std::make_unique<SpanData>();
    span->trace_id = trace_id;
    span->span_id = span_id;
    if (parent) {
        span->parent_span_id = parent->parent_id;
        span->trace_state = tracestate;
    }
    span->kind = telemetry::SpanKind::client;
    span->name = std::string(method);
    span->set("mcp.method.name", std::string(method));
    if (const auto target = named_target(method, params); !target.empty()) {
        span->name += ' ';
        span->name += target;
        const telemetry::AttributeKey key = method == "tools/call" ? telemetry::AttributeKey("gen_ai.tool.name")
                                                                   : telemetry::AttributeKey("gen_ai.prompt.name");
        span->set(key, std::string(target));
    }
    span->start_unix_nano = telemetry::now_unix_nano();
    return span;
}

void end_client_span(telemetry::Tracer& tracer, SpanData& span_data, const Outcome& outcome,
                     std::string_view protocol_version) {
    auto* span = &span_data;
    if (!protocol_version.empty()) span->set("mcp.protocol.version", std::string(protocol_version));
    if (outcome.error) {
        record_failure(*span, outcome.error);
    } else if (const auto* result = outcome.result.if_object()) {
        if (const auto* is_error = result->if_contains("isError");
            is_error && is_error->is_bool() && is_error->get_bool()) {
            span->set("error.type", "tool_error");
            span->status = telemetry::StatusCode::error;
        }
    }
    span->end_unix_nano = telemetry::now_unix_nano();
    tracer.export_span(std::move(*span));
}

}  // namespace mcp::detail
