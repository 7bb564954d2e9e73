#pragma once
// What a traced process holds: the sampler's settings, the resource its spans describe, and the
// exporter they go to. Spans are built by their owners (the core's calls) and handed in once ended.
#include "telemetry/sampler.hpp"
#include "telemetry/span_exporter.hpp"

#include <mcp/telemetry/tracing_options.hpp>

#include <string_view>

namespace mcp::telemetry {

class Tracer {
public:
    // service: the resource's service.name unless the options or their resource attributes name
    // one. Throws std::invalid_argument for options the exporter cannot use.
    Tracer(const TracingOptions& options, std::string_view service);

    const SamplerSettings& sampler() const { return sampler_; }
    // An ended span, sent on in the background.
    void export_span(SpanData span) { exporter_.push(std::move(span)); }
    bool flush(std::chrono::milliseconds within) { return exporter_.flush(within); }
    SpanExporter::Stats stats() const { return exporter_.stats(); }

private:
    SamplerSettings sampler_;
    SpanExporter exporter_;
};

// The resource attributes: service.name, the SDK's name and language, then the options' own.
Attributes resource_of(const TracingOptions& options, std::string_view service);

}  // namespace mcp::telemetry
