#pragma once
// A finished or running span as OTLP carries it: ids, name, kind, times, attributes, events, links
// and status (opentelemetry-proto's trace.proto). Written by one thread at a time, then handed to the
// exporter.
#include <mcp/telemetry/attribute.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcp::telemetry {

using TraceId = std::array<std::uint8_t, 16>;
using SpanId = std::array<std::uint8_t, 8>;

// OTLP's Span.SpanKind and Status.StatusCode values.
enum class SpanKind : std::uint8_t { internal = 1, server = 2, client = 3 };
enum class StatusCode : std::uint8_t { unset = 0, ok = 1, error = 2 };

struct Event {
    std::uint64_t time_unix_nano = 0;
    std::string name;
    Attributes attributes;
};

// A span this one is related to without being its child: the stream a resumption continues, the
// stream's span before this one (OTLP's Span.Link).
struct Link {
    TraceId trace_id{};
    SpanId span_id{};
    std::uint8_t trace_flags = 1;  // the linked span's W3C flags
    bool remote = false;           // the linked span was recorded by another process
    Attributes attributes;
};

struct SpanData {
    // More attributes or events than this are dropped and counted in the span.
    static constexpr std::size_t kMaxAttributes = 128;
    static constexpr std::size_t kMaxEvents = 128;
    static constexpr std::size_t kMaxLinks = 128;
    // Room made at the first attribute: what a server span of the conventions carries.
    static constexpr std::size_t kTypicalAttributes = 8;

    TraceId trace_id{};
    SpanId span_id{};
    SpanId parent_span_id{};  // all zero: a root span
    bool parent_remote = false;
    std::string trace_state;
    std::uint8_t trace_flags = 1;  // W3C flags; bit 0: sampled
    std::string name;
    SpanKind kind = SpanKind::internal;
    std::uint64_t start_unix_nano = 0;
    std::uint64_t end_unix_nano = 0;
    Attributes attributes;
    std::uint32_t dropped_attributes = 0;
    std::vector<Event> events;
    std::uint32_t dropped_events = 0;
    std::vector<Link> links;
    std::uint32_t dropped_links = 0;
    StatusCode status = StatusCode::unset;
    std::string status_message;

    bool has_parent() const;
    void set(AttributeKey key, AttributeValue value);  // replaces an attribute of that key
    void add_event(std::string event_name, Attributes event_attributes);
    void add_link(Link link);
};

// Nanoseconds since the Unix epoch, now.
std::uint64_t now_unix_nano();

}  // namespace mcp::telemetry
