#include "server/client_requests/round_span.hpp"

#include "server/call.hpp"
#include "server/call_span.hpp"
#include "server/core.hpp"
#include "telemetry/ids.hpp"
#include "telemetry/traceparent.hpp"
#include "telemetry/tracer.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/sessions/session.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

namespace mcp::detail {

namespace {

using telemetry::SpanData;
using telemetry::SpanKind;

// The JSON-RPC code of an error response, or nothing.
std::optional<std::int64_t> error_code_in(const boost::json::value& answer) {
    const auto* o = answer.if_object();
    const auto* error = o != nullptr ? o->if_contains("error") : nullptr;
    if (error == nullptr) return std::nullopt;
    const auto* code = error->is_object() ? error->get_object().if_contains("code") : nullptr;
    // As answer_of reads it: an error without a numeric code stands for an internal error.
    return code != nullptr && code->is_int64() ? code->get_int64() : std::int64_t{error_code::internal_error};
}

void end_with_answer(SpanData& span, const boost::json::value& answer) {
    if (auto code = error_code_in(answer)) set_error_code(span, *code, &answer);
}

}  // namespace

SpanPtr begin_request_span(const CallState& call, std::string_view method, boost::json::object& params) {
    if (!call.span) return nullptr;
    auto span = std::make_unique<SpanData>();
    span->trace_id = call.span->trace_id;
    span->span_id = telemetry::random_span_id();
    span->parent_span_id = call.span->span_id;
    span->trace_state = call.span->trace_state;
    span->kind = SpanKind::client;
    span->name = std::string(method);
    span->set("mcp.method.name", std::string(method));
    if (call.session) span->set("mcp.session.id", call.session->id());
    span->start_unix_nano = telemetry::now_unix_nano();
    auto& meta = params["_meta"];
    if (!meta.is_object()) meta = boost::json::object();
    meta.as_object()["traceparent"] = telemetry::format_traceparent(span->trace_id, span->span_id, true);
    return span;
}

std::string answer_trace_note(const SpanData* span, std::string_view method) {
    if (span == nullptr) return {};
    return telemetry::format_traceparent(span->trace_id, span->span_id, true) + ' ' + std::string(method);
}

void set_request_id(SpanData* span, std::string_view id) {
    if (span != nullptr) span->set("jsonrpc.request.id", std::string(id));
}

void end_request_span(ServerCore& core, SpanPtr span, const boost::json::value& answer) {
    if (!span) return;
    end_with_answer(*span, answer);
    span->end_unix_nano = telemetry::now_unix_nano();
    core.tracer->export_span(std::move(*span));
}

void end_request_span(ServerCore& core, SpanPtr span, Unanswered why) {
    if (!span) return;
    if (why == Unanswered::timeout) {
        span->set("error.type", "timeout");
        span->status = telemetry::StatusCode::error;
        span->status_message = "no answer in time";
    } else {
        span->add_event("cancelled", {});  // the call was dropped: nobody waits for the answer
    }
    span->end_unix_nano = telemetry::now_unix_nano();
    core.tracer->export_span(std::move(*span));
}

SpanPtr begin_answer_span(const ServerCore& core, std::string_view note, std::string_view id,
                          const boost::json::value& answer) {
    if (core.tracer == nullptr || note.empty()) return nullptr;
    // The note was sealed by a node of this cluster; still read defensively.
    const auto space = note.find(' ');
    const auto parent = telemetry::parse_traceparent(note.substr(0, space));
    if (!parent || space == std::string_view::npos) return nullptr;
    const auto method = note.substr(space + 1);
    auto span = std::make_unique<SpanData>();
    span->trace_id = parent->trace_id;
    span->span_id = telemetry::random_span_id();
    span->parent_span_id = parent->parent_id;
    span->parent_remote = true;
    span->kind = SpanKind::server;
    span->name = std::string(method) + " answer";
    span->set("mcp.method.name", std::string(method));
    span->set("jsonrpc.request.id", std::string(id));
    span->start_unix_nano = telemetry::now_unix_nano();
    end_with_answer(*span, answer);
    return span;
}

void end_answer_span(ServerCore& core, SpanPtr span, const Session& session, bool delivered) {
    if (!span) return;
    span->set("mcp.session.id", session.id());
    // Nobody waits for it any more (answered twice, or after its timeout): dropped, not an error.
    if (!delivered) span->add_event("not_expected", {});
    span->end_unix_nano = telemetry::now_unix_nano();
    core.tracer->export_span(std::move(*span));
}

}  // namespace mcp::detail
