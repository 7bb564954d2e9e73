#pragma once
// Parent-based ratio sampling (OpenTelemetry's parentbased_traceidratio): a span follows its
// remote parent's sampled flag; a span that starts a trace is sampled when its trace id falls
// under the ratio, so every node decides alike for one trace.
#include "telemetry/span.hpp"

#include <optional>

namespace mcp::telemetry {

struct SamplerSettings {
    bool parent_based = true;
    double ratio = 1.0;  // 0 to 1
};

// parent_sampled: the caller's sampled flag, nothing when the span starts a trace.
bool should_sample(const SamplerSettings& settings, std::optional<bool> parent_sampled, const TraceId& trace_id);

}  // namespace mcp::telemetry
