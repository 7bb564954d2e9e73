#include "telemetry/sampler.hpp"

namespace mcp::telemetry {

bool should_sample(const SamplerSettings& settings, std::optional<bool> parent_sampled, const TraceId& trace_id) {
    if (settings.parent_based && parent_sampled) return *parent_sampled;
    if (settings.ratio >= 1.0) return true;
    if (!(settings.ratio > 0.0)) return false;
    // The trace id's last 8 bytes, which W3C asks to be random, against the ratio of 2^64.
    std::uint64_t low = 0;
    for (std::size_t i = 8; i < 16; ++i) low = (low << 8) | trace_id[i];
    const auto bound = static_cast<std::uint64_t>(settings.ratio * 18446744073709551616.0);
    return low < bound;
}

}  // namespace mcp::telemetry
