#pragma once
// Where and how the server exports its spans: OTLP over HTTP (docs/adr/0030-tracing.md). mcp::run
// fills these from its --otlp-* and --otel-* flags, else the standard OTEL_* variables.
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mcp::telemetry {

enum class OtlpProtocol { http_protobuf, http_json };

// A 2025 GET stream's span ends, and the next one (linked to it) begins, after this many events or
// this long, whichever comes first: a long stream does not hide its spans until it ends.
inline constexpr std::size_t kStreamSpanEvents = 1000;
inline constexpr std::chrono::seconds kStreamSpanLifetime{300};

struct TracingOptions {
    // The collector's traces URL (http:// or https://), e.g. http://127.0.0.1:4318/v1/traces.
    // Empty: no spans are recorded.
    std::string endpoint;
    OtlpProtocol protocol = OtlpProtocol::http_protobuf;
    std::vector<std::pair<std::string, std::string>> headers;  // sent with every export
    // The resource's service.name; empty: the server's name.
    std::string service_name;
    std::vector<std::pair<std::string, std::string>> resource_attributes;
    // A span whose caller sent a traceparent is sampled when the caller's was (parent-based); a
    // span that starts a trace is sampled at this ratio, by its trace id.
    bool parent_based = true;
    double sampling_ratio = 1.0;
    // TLS to the collector: a CA file instead of the system's roots, a client certificate.
    std::string ca_file;
    std::string client_cert_file;
    std::string client_key_file;
    // Spans wait in a bounded queue; beyond it they are dropped and counted
    // (mcp_trace_spans_dropped_total). They go in batches of at most max_batch, at least every
    // export_interval.
    std::size_t max_queue = 4096;
    std::size_t max_batch = 512;
    std::chrono::milliseconds export_interval{1000};
    std::chrono::milliseconds export_timeout{10'000};  // one export request
    std::size_t stream_span_events = kStreamSpanEvents;
    std::chrono::seconds stream_span_lifetime = kStreamSpanLifetime;
};

}  // namespace mcp::telemetry
