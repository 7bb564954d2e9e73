#pragma once
// The registry as Prometheus reads it: the text format 0.0.4, or OpenMetrics 1.0 (which adds
// exemplars) when the scraper asks for it.
#include "util/metrics.hpp"

#include <string>
#include <string_view>

namespace mcp::detail::metrics {

enum class Format { prometheus_text, openmetrics };

// The format an Accept header asks for: OpenMetrics when it names application/openmetrics-text.
Format format_for(std::string_view accept);
std::string_view content_type(Format format);

std::string expose(const Registry& registry, Format format);

}  // namespace mcp::detail::metrics
