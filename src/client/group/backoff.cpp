#include "client/group/backoff.hpp"

#include <algorithm>

namespace mcp::detail {

std::chrono::milliseconds backoff_delay(const ReconnectPolicy& policy, int failures, double jitter) {
    auto delay = std::max(policy.initial_delay, std::chrono::milliseconds(1));
    for (int i = 1; i < failures && delay < policy.max_delay; ++i) delay *= 2;
    delay = std::min(delay, policy.max_delay);
    jitter = std::clamp(jitter, 0.0, 1.0);
    return delay -
           std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(delay.count()) / 2 * jitter));
}

}  // namespace mcp::detail
