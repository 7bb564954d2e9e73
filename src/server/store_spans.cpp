#include "server/store_spans.hpp"

#include "telemetry/ids.hpp"
#include "telemetry/tracer.hpp"

namespace mcp::detail {

StoreSpans::StoreSpans(telemetry::Tracer& tracer, const telemetry::SpanData& parent)
    : tracer_(tracer), trace_id_(parent.trace_id), parent_id_(parent.span_id) {}

void StoreSpans::round_trip(const StoreRoundTrip& trip) noexcept {
    try {
        telemetry::SpanData span;
        span.trace_id = trace_id_;
        span.span_id = telemetry::random_span_id();
        span.parent_span_id = parent_id_;
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
