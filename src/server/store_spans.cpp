#include "server/store_spans.hpp"

#include "server/call.hpp"
#include "server/call_span.hpp"
#include "server/core.hpp"
#include "telemetry/ids.hpp"
#include "telemetry/tracer.hpp"

namespace mcp::detail {

StoreSpans::StoreSpans(CallState& call) : tracer_(*call.core.tracer), call_(&call) {}

StoreSpans::StoreSpans(telemetry::Tracer& tracer, const telemetry::SpanData& parent)
    : tracer_(tracer), parent_(&parent) {}

void StoreSpans::round_trip(const StoreRoundTrip& trip) noexcept {
    const auto* parent = call_ != nullptr ? current_span(*call_) : parent_;
    if (parent == nullptr) return;
    try {
        telemetry::SpanData span;
        span.trace_id = parent->trace_id;
        span.span_id = telemetry::random_span_id();
        span.parent_span_id = parent->span_id;
        span.kind = telemetry::SpanKind::client;
        span.name = trip.commands > 1 ? "PIPELINE" : std::string(trip.operation);
        span.set("db.system.name", "redis");
        span.set("db.operation.name", span.name);
        if (trip.commands > 1) span.set("db.operation.batch.size", static_cast<std::int64_t>(trip.commands));
        if (trip.failed) {
            span.set("error.type", "store_unavailable");
            span.status = telemetry::StatusCode::error;
        }
        span.start_unix_nano = static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(trip.started.time_since_epoch()).count());
        span.end_unix_nano = telemetry::now_unix_nano();
        tracer_.export_span(std::move(span));
    } catch (...) {  // NOLINT(bugprone-empty-catch): a span lost to a failed allocation harms no call
    }
}

}  // namespace mcp::detail
