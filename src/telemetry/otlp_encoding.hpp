#pragma once
// ExportTraceServiceRequest, the body of an OTLP/HTTP trace export, in its two encodings: binary
// protobuf (http/protobuf) and proto3 JSON (http/json: hex ids, integer enums, 64-bit integers as
// strings). Field numbers are those of opentelemetry-proto's trace.proto, common.proto and
// resource.proto (the version is pinned in docs/adr/0030-tracing.md). One resource, one scope.
#include "telemetry/protobuf_writer.hpp"
#include "telemetry/span.hpp"

#include <span>
#include <string>

namespace mcp::telemetry {

// Flags of OTLP's Span.flags: the W3C trace flags, and whether the parent is known to be remote.
std::uint32_t otlp_span_flags(const SpanData& span);
// The same for Span.Link.flags: the linked span's W3C flags, and whether it is remote.
std::uint32_t otlp_link_flags(const Link& link);

std::string encode_protobuf(const Attributes& resource, std::span<const SpanData> spans);
// The same into `out` (emptied first), so that an exporter reuses one buffer for every batch.
void encode_protobuf(const Attributes& resource, std::span<const SpanData> spans, ProtobufWriter& out);
std::string encode_json(const Attributes& resource, std::span<const SpanData> spans);

// The instrumentation scope every span is reported under.
inline constexpr std::string_view kScopeName = "mcp-cpp";

}  // namespace mcp::telemetry
