#pragma once
// A traced request's round trips to the shared store, each a CLIENT span (docs/adr/0030-tracing.md)
// named by its command, with the OpenTelemetry database conventions' db.system.name = redis,
// db.operation.name, and db.operation.batch.size for a pipeline. Handed down to the store as its
// thread's observer (store/round_trip_observer.hpp) only while a sampled request runs.
#include "store/round_trip_observer.hpp"
#include "telemetry/span.hpp"

namespace mcp::telemetry {
class Tracer;
}  // namespace mcp::telemetry

namespace mcp::detail {

class StoreSpans final : public StoreObserver {
public:
    // Under `parent`, whose ids are copied: once a parked call's request is out, another thread
    // may resume the call and change its spans while this one still reports a round trip.
    StoreSpans(telemetry::Tracer& tracer, const telemetry::SpanData& parent);

    void round_trip(const StoreRoundTrip& trip) noexcept override;

private:
    telemetry::Tracer& tracer_;
    telemetry::TraceId trace_id_;
    telemetry::SpanId parent_id_;
};

}  // namespace mcp::detail
