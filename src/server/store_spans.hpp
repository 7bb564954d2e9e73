#pragma once
// A traced request's round trips to the shared store, each a CLIENT span (docs/adr/0030-tracing.md)
// named by its command, with the OpenTelemetry database conventions' db.system.name = redis,
// db.operation.name, and db.operation.batch.size for a pipeline. Handed down to the store as its
// thread's observer (store/round_trip_observer.hpp) only while a sampled request runs.
#include "store/round_trip_observer.hpp"

namespace mcp::telemetry {
struct SpanData;
class Tracer;
}  // namespace mcp::telemetry

namespace mcp::detail {

struct CallState;

class StoreSpans final : public StoreObserver {
public:
    // Under the call's current span: its handler's while that runs, else its SERVER span.
    explicit StoreSpans(CallState& call);
    // Under `parent`, which outlives this.
    StoreSpans(telemetry::Tracer& tracer, const telemetry::SpanData& parent);

    void round_trip(const StoreRoundTrip& trip) noexcept override;

private:
    telemetry::Tracer& tracer_;
    CallState* call_ = nullptr;
    const telemetry::SpanData* parent_ = nullptr;
};

}  // namespace mcp::detail
