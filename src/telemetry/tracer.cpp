#include "telemetry/tracer.hpp"

#include "telemetry/ids.hpp"

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

// A version 4 UUID in its usual text form.
std::string random_uuid() {
    auto bytes = random_trace_id();
    bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0f) | 0x40);
    bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3f) | 0x80);
    auto hex = to_hex(bytes);
    for (std::size_t at : {8, 13, 18, 23}) hex.insert(at, 1, '-');
    return hex;
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
    // Tells the nodes of one service apart (a trace that crosses them), unless the operator named
    // the instance: a random UUID, as the conventions advise.
    if (std::none_of(given.begin(), given.end(), [](const auto& kv) { return kv.first == "service.instance.id"; }))
        resource.push_back({"service.instance.id", random_uuid()});
    return resource;
}

Tracer::Tracer(const TracingOptions& options, std::string_view service)
    : sampler_{options.parent_based, options.sampling_ratio}, exporter_(exporter_settings(options, service)) {}

}  // namespace mcp::telemetry
