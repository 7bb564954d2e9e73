#include "telemetry/tracer.hpp"

#include <algorithm>

namespace mcp::telemetry {

namespace {

ExporterSettings exporter_settings(const TracingOptions& options, std::string_view service) {
    ExporterSettings settings;
    settings.url = options.endpoint;
    settings.protocol = options.protocol;
    settings.headers = options.headers;
    settings.tls.ca_file = options.ca_file;
    settings.tls.client_cert_file = options.client_cert_file;
    settings.tls.client_key_file = options.client_key_file;
    settings.resource = resource_of(options, service);
    settings.max_queue = options.max_queue;
    settings.max_batch = std::max<std::size_t>(1, options.max_batch);
    settings.export_interval = options.export_interval;
    settings.export_timeout = options.export_timeout;
    return settings;
}

}  // namespace

Attributes resource_of(const TracingOptions& options, std::string_view service) {
    const auto& given = options.resource_attributes;
    const auto named =
        std::find_if(given.begin(), given.end(), [](const auto& kv) { return kv.first == "service.name"; });
    std::string name = !options.service_name.empty() ? options.service_name
                       : named != given.end()        ? named->second
                                                     : std::string(service);
    Attributes resource{
        {"service.name", std::move(name)}, {"telemetry.sdk.name", "mcp-cpp"}, {"telemetry.sdk.language", "cpp"}};
    for (const auto& [key, value] : given) {
        if (key != "service.name") resource.push_back({key, value});
    }
    return resource;
}

Tracer::Tracer(const TracingOptions& options, std::string_view service)
    : sampler_{options.parent_based, options.sampling_ratio}, exporter_(exporter_settings(options, service)) {}

}  // namespace mcp::telemetry
