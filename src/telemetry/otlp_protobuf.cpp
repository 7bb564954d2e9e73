#include "telemetry/otlp_encoding.hpp"

#include <string_view>
#include <variant>

namespace mcp::telemetry {

namespace {

template <std::size_t N>
std::string_view raw(const std::array<std::uint8_t, N>& id) {
    return {reinterpret_cast<const char*>(id.data()), N};
}

// common.proto: AnyValue {1 string, 2 bool, 3 int64, 4 double}; KeyValue {1 key, 2 value}.
void add_attributes(ProtobufWriter& out, std::uint32_t field, const Attributes& attributes) {
    for (const auto& a : attributes) {
        const auto key_value = out.open(field);
        out.bytes_field(1, a.key.view());
        const auto value = out.open(2);
        std::visit(
            [&out](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::string>) out.bytes_field(1, v);
                if constexpr (std::is_same_v<T, bool>) out.bool_field(2, v);
                if constexpr (std::is_same_v<T, std::int64_t>) out.int64_field(3, v);
                if constexpr (std::is_same_v<T, double>) out.double_field(4, v);
            },
            static_cast<const AttributeValue::Base&>(a.value));
        out.close(value);
        out.close(key_value);
    }
}

// trace.proto: Span.Event {1 time_unix_nano, 2 name, 3 attributes}.
void add_event(ProtobufWriter& out, const Event& e) {
    const auto event = out.open(11);
    out.fixed64_field(1, e.time_unix_nano);
    out.bytes_field(2, e.name);
    add_attributes(out, 3, e.attributes);
    out.close(event);
}

// trace.proto: Span.Link {1 trace_id, 2 span_id, 3 trace_state, 4 attributes,
// 5 dropped_attributes_count, 6 flags}.
void add_link(ProtobufWriter& out, const Link& l) {
    const auto link = out.open(13);
    out.bytes_field(1, raw(l.trace_id));
    out.bytes_field(2, raw(l.span_id));
    add_attributes(out, 4, l.attributes);
    out.fixed32_field(6, otlp_link_flags(l));
    out.close(link);
}

// trace.proto: ScopeSpans.spans = Span {1 trace_id, 2 span_id, 3 trace_state, 4 parent_span_id,
// 5 name, 6 kind, 7 start_time_unix_nano, 8 end_time_unix_nano, 9 attributes,
// 10 dropped_attributes_count, 11 events, 12 dropped_events_count, 13 links,
// 14 dropped_links_count, 15 status, 16 flags}; Status {2 message, 3 code}.
void add_span(ProtobufWriter& out, const SpanData& s) {
    const auto span = out.open(2);
    out.bytes_field(1, raw(s.trace_id));
    out.bytes_field(2, raw(s.span_id));
    if (!s.trace_state.empty()) out.bytes_field(3, s.trace_state);
    if (s.has_parent()) out.bytes_field(4, raw(s.parent_span_id));
    out.bytes_field(5, s.name);
    out.varint_field(6, static_cast<std::uint64_t>(s.kind));
    out.fixed64_field(7, s.start_unix_nano);
    out.fixed64_field(8, s.end_unix_nano);
    add_attributes(out, 9, s.attributes);
    out.varint_field(10, s.dropped_attributes);
    for (const auto& e : s.events) add_event(out, e);
    out.varint_field(12, s.dropped_events);
    for (const auto& l : s.links) add_link(out, l);
    out.varint_field(14, s.dropped_links);
    if (s.status != StatusCode::unset) {
        const auto status = out.open(15);
        if (!s.status_message.empty()) out.bytes_field(2, s.status_message);
        out.varint_field(3, static_cast<std::uint64_t>(s.status));
        out.close(status);
    }
    out.fixed32_field(16, otlp_span_flags(s));
    out.close(span);
}

}  // namespace

namespace {

std::uint32_t otlp_flags(std::uint8_t trace_flags, bool remote) {
    constexpr std::uint32_t kHasIsRemote = 0x100;
    constexpr std::uint32_t kIsRemote = 0x200;
    return trace_flags | kHasIsRemote | (remote ? kIsRemote : 0);
}

}  // namespace

std::uint32_t otlp_span_flags(const SpanData& span) { return otlp_flags(span.trace_flags, span.parent_remote); }

std::uint32_t otlp_link_flags(const Link& link) { return otlp_flags(link.trace_flags, link.remote); }

// ExportTraceServiceRequest {1 resource_spans}; ResourceSpans {1 resource, 2 scope_spans};
// Resource {1 attributes}; ScopeSpans {1 scope, 2 spans}; InstrumentationScope {1 name}.
void encode_protobuf(const Attributes& resource, std::span<const SpanData> spans, ProtobufWriter& out) {
    constexpr std::size_t kTypicalSpanBytes = 256;
    out.clear();
    out.reserve(256 + spans.size() * kTypicalSpanBytes);
    const auto resource_spans = out.open(1);
    const auto resource_message = out.open(1);
    add_attributes(out, 1, resource);
    out.close(resource_message);
    const auto scope_spans = out.open(2);
    const auto scope = out.open(1);
    out.bytes_field(1, kScopeName);
    out.close(scope);
    for (const auto& s : spans) add_span(out, s);
    out.close(scope_spans);
    out.close(resource_spans);
}

std::string encode_protobuf(const Attributes& resource, std::span<const SpanData> spans) {
    ProtobufWriter out;
    encode_protobuf(resource, spans, out);
    return std::string(out.bytes());
}

}  // namespace mcp::telemetry
