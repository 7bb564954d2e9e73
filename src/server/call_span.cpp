#include "server/call_span.hpp"

#include "server/call.hpp"
#include "server/client_requests/rounds.hpp"
#include "server/core.hpp"
#include "server/method_binding.hpp"
#include "server/scope_guard.hpp"
#include "telemetry/ids.hpp"
#include "telemetry/sampler.hpp"
#include "telemetry/traceparent.hpp"
#include "telemetry/tracer.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/server/sink.hpp>

#include <boost/json/value.hpp>

namespace mcp::detail {

namespace {

using telemetry::SpanData;
using telemetry::SpanKind;
using telemetry::StatusCode;

// The id as the conventions ask: its text, a number in decimal.
std::string request_id_text(const boost::json::value& id) {
    if (id.is_string()) return std::string(id.get_string());
    if (id.is_int64()) return std::to_string(id.get_int64());
    if (id.is_uint64()) return std::to_string(id.get_uint64());
    return {};
}

// The JSON-RPC error code of an error response, else the code the outcome stands for.
// The answer's code, else the one its outcome stands for.
std::optional<std::int64_t> error_code(Outcome outcome, int answer_code) {
    if (answer_code != 0) return answer_code;
    switch (outcome) {
        case Outcome::invalid_request: return error_code::invalid_request;
        case Outcome::method_not_found: return error_code::method_not_found;
        case Outcome::invalid_params: return error_code::invalid_params;
        case Outcome::internal_error:
        case Outcome::unavailable: return error_code::internal_error;
        default: return std::nullopt;
    }
}

std::string error_message(const boost::json::value* response) {
    if (response == nullptr || !response->is_object()) return {};
    const auto* error = response->get_object().if_contains("error");
    if (error == nullptr || !error->is_object()) return {};
    const auto* message = error->get_object().if_contains("message");
    return message != nullptr && message->is_string() ? std::string(message->get_string()) : std::string();
}

// The connection's attributes, as the transport knew them (keys literal: borrowed, not copied).
void set_network(SpanData& span, const InboundNetwork& network) {
    if (!network.transport.empty()) span.set("network.transport", network.transport);
    if (!network.protocol_name.empty()) span.set("network.protocol.name", network.protocol_name);
    if (!network.protocol_version.empty()) span.set("network.protocol.version", network.protocol_version);
    if (!network.client_address.empty()) span.set("client.address", network.client_address);
    if (network.client_port != 0) span.set("client.port", network.client_port);
}

}  // namespace

void begin_server_span(CallState& call, TraceContext trace, const InboundNetwork& network) {
    const auto* tracer = call.core.tracer.get();
    if (tracer == nullptr) {
        call.trace = std::move(trace);
        return;
    }
    // The caller's trace with the span id start_span gave this request, or a new trace.
    const auto caller = telemetry::parse_traceparent(trace.traceparent);  // start_span checked it
    const bool continued = caller.has_value() && !trace.trace_id.empty();
    const auto trace_id = continued ? caller->trace_id : telemetry::random_trace_id();
    const auto span_id = continued ? *telemetry::span_id_from_hex(trace.span_id) : telemetry::random_span_id();
    if (!continued) {
        trace.trace_id = HexId<32>(telemetry::hex_digits(trace_id));
        trace.span_id = HexId<16>(telemetry::hex_digits(span_id));
    }
    const auto parent_sampled = continued ? std::optional<bool>((caller->flags & 1) != 0) : std::nullopt;
    trace.sampled = telemetry::should_sample(tracer->sampler(), parent_sampled, trace_id);
    call.trace = std::move(trace);
    if (!call.trace.sampled) return;  // no span is built

    auto span = std::make_unique<SpanData>();
    span->trace_id = trace_id;
    span->span_id = span_id;
    if (continued) {
        span->parent_span_id = caller->parent_id;
        span->parent_remote = !call.trace.parent_local;
        span->trace_state = call.trace.tracestate;
    }
    span->kind = SpanKind::server;
    set_network(*span, network);
    span->start_unix_nano = telemetry::now_unix_nano();
    call.span = std::move(span);
}

void end_server_span(CallState& call, Outcome outcome, int answer_code, const boost::json::value* response) {
    if (!call.span) return;
    auto span = std::move(call.span);
    const std::string_view method = call.message.method;
    const auto target = target_of(call);
    span->name = std::string(method);
    span->set("mcp.method.name", std::string(method));
    if (!target.empty()) {
        // Tools and prompts name the span; a resource's URI is not a low-cardinality target.
        if (method == "tools/call") {
            span->name += ' ';
            span->name += target;
            span->set("gen_ai.tool.name", std::string(target));
            span->set("gen_ai.operation.name", "execute_tool");
        } else if (method == "prompts/get") {
            span->name += ' ';
            span->name += target;
            span->set("gen_ai.prompt.name", std::string(target));
        } else if (method == "resources/read" || method.starts_with("resources/")) {
            span->set("mcp.resource.uri", std::string(target));
        }
    }
    if (auto id = request_id_text(call.message.id); !id.empty()) span->set("jsonrpc.request.id", std::move(id));
    // A 2026-07-28 request has no MCP session (a stdio connection's is the library's own).
    if (call.session && !call.session->id().empty() && call.exchange && call.exchange->era() == Era::sessions)
        span->set("mcp.session.id", call.session->id());
    if (call.exchange) span->set("mcp.protocol.version", std::string(call.exchange->protocol_version()));
    // 2026: a retry's answers to earlier rounds (from inputResponses and requestState).
    if (!call.input.answers.empty())
        span->set("mcp.input_responses.count", static_cast<std::int64_t>(call.input.answers.size()));
    if (outcome == Outcome::tool_error) {
        span->set("error.type", "tool_error");
        span->status = StatusCode::error;
    } else if (outcome == Outcome::cancelled) {
        span->add_event("cancelled", {});
    } else if (auto code = error_code(outcome, answer_code)) {
        set_error_code(*span, *code, response);
    }
    span->end_unix_nano = telemetry::now_unix_nano();
    call.core.tracer->export_span(std::move(*span));
}

void begin_handler_span(CallState& call) {
    if (!call.span || call.method == nullptr || !call.method->info->user_code) return;
    auto span = std::make_unique<SpanData>();
    span->trace_id = call.span->trace_id;
    span->span_id = telemetry::random_span_id();
    span->parent_span_id = call.span->span_id;
    span->kind = SpanKind::internal;
    const auto target = target_of(call);
    span->name = call.message.method == "tools/call" ? "execute_tool " + std::string(target)
                                                     : "handle " + std::string(call.message.method);
    span->start_unix_nano = telemetry::now_unix_nano();
    call.handler_span = std::move(span);
}

void end_handler_span(CallState& call, const std::exception_ptr& failure) {
    if (!call.handler_span) return;
    auto span = std::move(call.handler_span);
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const InputRequired&) {
            span->add_event("input_required", {});  // the client answers first: not a failure
        } catch (const Error& e) {
            span->set("error.type", std::to_string(e.code()));
            span->status = StatusCode::error;
            span->status_message = e.message();
        } catch (const std::exception& e) {
            span->set("error.type", "exception");
            span->status = StatusCode::error;
            span->status_message = e.what();
        } catch (...) {
            span->set("error.type", "exception");
            span->status = StatusCode::error;
        }
    }
    span->end_unix_nano = telemetry::now_unix_nano();
    call.core.tracer->export_span(std::move(*span));
}

void record_input_requests(CallState& call) {
    if (!call.span) return;
    for (const auto& request : call.input.pending) {
        call.span->add_event("input_request",
                             {{"mcp.method.name", request.method}, {"mcp.input_request.key", request.key}});
    }
}

void set_error_code(telemetry::SpanData& span, std::int64_t code, const boost::json::value* response) {
    span.set("error.type", std::to_string(code));
    span.set("rpc.response.status_code", std::to_string(code));
    span.status = StatusCode::error;
    span.status_message = error_message(response);
}

telemetry::SpanData* current_span(CallState& call) {
    if (call.handler_span) return call.handler_span.get();
    return call.span.get();
}

std::string child_traceparent(const CallState& call) {
    if (const auto& span = call.handler_span) return telemetry::format_traceparent(span->trace_id, span->span_id, true);
    return call.trace.child_traceparent();
}

}  // namespace mcp::detail
