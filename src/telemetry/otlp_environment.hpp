#pragma once
// The tracing settings from mcp::run's flags and, for what the flags leave unset, the standard
// OpenTelemetry variables (OTEL_EXPORTER_OTLP_*, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER and its _ARG). A flag (or its config key, or its MCP_* variable) wins over
// an OTEL_* variable. Anything malformed throws std::invalid_argument naming its source.
#include <mcp/telemetry/tracing_options.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::telemetry {

// The flags as given; empty or nothing when not.
struct TracingFlags {
    std::string endpoint;  // used as is, but a URL without a path gets /v1/traces
    std::string protocol;  // http/protobuf or http/json
    std::string headers;   // k=v,k=v
    std::string service_name;
    std::string resource_attributes;  // k=v,k=v
    std::optional<double> sampling_ratio;
    std::string ca_file;
    std::string client_cert_file;
    std::string client_key_file;
    std::optional<std::size_t> stream_span_events;
};

// A variable's value, nothing when unset. Empty values count as unset, as OpenTelemetry asks.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;
Environment process_environment();

TracingOptions resolve_tracing(const TracingFlags& flags, const Environment& environment);

// "k=v,k2=v%202": the W3C baggage-like lists of OTEL_EXPORTER_OTLP_HEADERS and
// OTEL_RESOURCE_ATTRIBUTES, values percent-decoded. Throws std::invalid_argument.
std::vector<std::pair<std::string, std::string>> parse_key_values(std::string_view text);
// "http/protobuf" or "http/json"; grpc and anything else throw.
OtlpProtocol parse_protocol(std::string_view text);
// An http:// or https:// URL with a host; throws otherwise.
void check_endpoint(std::string_view url);

}  // namespace mcp::telemetry
