#include "transport/http/verify_span.hpp"

#include "telemetry/ids.hpp"
#include "telemetry/sampler.hpp"
#include "telemetry/traceparent.hpp"
#include "telemetry/tracer.hpp"

#include <mcp/server/request_context.hpp>

#include <chrono>

namespace mcp::detail {

namespace {

using telemetry::SpanData;
using telemetry::SpanKind;
using telemetry::StatusCode;

std::uint64_t unix_nano(std::chrono::system_clock::time_point t) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

// A request to the authorization server, by the HTTP client conventions: named by its method.
SpanData fetch_span(const SpanData& parent, const FetchRecord& fetch) {
    SpanData span;
    span.trace_id = parent.trace_id;
    span.span_id = telemetry::random_span_id();
    span.parent_span_id = parent.span_id;
    span.kind = SpanKind::client;
    span.name = fetch.method;
    span.start_unix_nano = unix_nano(fetch.start);
    span.end_unix_nano = unix_nano(fetch.end);
    span.set("http.request.method", fetch.method);
    span.set("url.full", url_for_span(fetch.url));
    span.set("mcp.auth.document", fetch.what);
    if (fetch.status != 0) span.set("http.response.status_code", static_cast<std::int64_t>(fetch.status));
    if (!fetch.failure.empty()) {
        // The status when the server refused, else what failed: no answer, or one that is not a document.
        span.set("error.type", fetch.status >= 400 ? std::to_string(fetch.status)
                               : fetch.status == 0 ? "transport"
                                                   : "invalid_document");
        span.status = StatusCode::error;
        span.status_message = fetch.failure;
    }
    return span;
}

}  // namespace

VerifySpan::VerifySpan(telemetry::Tracer* tracer, const TraceContext& trace) : tracer_(tracer) {
    if (tracer_ == nullptr) return;
    const auto parent = telemetry::parse_traceparent(trace.traceparent);
    root_ = !parent.has_value();
    if (root_) root_trace_ = telemetry::random_trace_id();
    const auto parent_sampled = parent ? std::optional<bool>((parent->flags & 1) != 0) : std::nullopt;
    if (!telemetry::should_sample(tracer_->sampler(), parent_sampled, parent ? parent->trace_id : root_trace_)) return;
    span_ = std::make_unique<SpanData>();
    span_->trace_id = parent ? parent->trace_id : root_trace_;
    span_->span_id = telemetry::random_span_id();
    if (parent) {
        span_->parent_span_id = parent->parent_id;
        span_->parent_remote = true;
        span_->trace_state = trace.tracestate;
    }
    span_->name = "verify token";
    span_->kind = SpanKind::internal;
    span_->start_unix_nano = telemetry::now_unix_nano();
    fetches_ = std::make_shared<FetchRecords>();
}

void VerifySpan::refused(std::string_view error_type, std::string_view message) {
    if (!span_) return;
    span_->set("error.type", std::string(error_type));
    span_->status = StatusCode::error;
    span_->status_message = message;
    finish();
}

void VerifySpan::accepted(TraceContext& trace) {
    if (span_) {
        trace.traceparent = telemetry::format_traceparent(span_->trace_id, span_->span_id, true);
        trace.parent_local = true;  // the core's span is this one's child, in this process
        finish();
    } else if (root_) {
        // Not sampled: the core follows this decision rather than drawing another trace.
        trace.traceparent = telemetry::format_traceparent(root_trace_, telemetry::random_span_id(), false);
    } else {
        return;  // the caller's unsampled traceparent goes on as it came
    }
    if (root_) trace.tracestate.clear();  // it came with a traceparent that was not well-formed
}

void VerifySpan::finish() {
    span_->end_unix_nano = telemetry::now_unix_nano();
    for (const auto& fetch : *fetches_) tracer_->export_span(fetch_span(*span_, fetch));
    tracer_->export_span(std::move(*span_));
    span_.reset();
}

std::string url_for_span(std::string_view url) {
    url = url.substr(0, url.find_first_of("?#"));
    const auto scheme_end = url.find("://");
    const auto authority = scheme_end == std::string_view::npos ? 0 : scheme_end + 3;
    const auto authority_end = url.find('/', authority);
    const auto at = url.substr(0, authority_end).rfind('@');
    if (at == std::string_view::npos || at < authority) return std::string(url);
    return std::string(url.substr(0, authority)) + std::string(url.substr(at + 1));
}

}  // namespace mcp::detail
