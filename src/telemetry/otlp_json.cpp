#include "telemetry/ids.hpp"
#include "telemetry/otlp_encoding.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <variant>

namespace mcp::telemetry {

namespace {

namespace json = boost::json;

// proto3 JSON: int64 and fixed64 values are strings, bytes of ids are hex (OTLP's exception to
// base64), enums are integers.
json::object any_value(const AttributeValue& value) {
    return std::visit(
        [](const auto& v) -> json::object {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>) return {{"stringValue", v}};
            if constexpr (std::is_same_v<T, bool>) return {{"boolValue", v}};
            if constexpr (std::is_same_v<T, std::int64_t>) return {{"intValue", std::to_string(v)}};
            if constexpr (std::is_same_v<T, double>) return {{"doubleValue", v}};
        },
        static_cast<const AttributeValue::Base&>(value));
}

json::array attributes(const Attributes& list) {
    json::array out;
    out.reserve(list.size());
    for (const auto& a : list) out.push_back(json::object{{"key", a.key.view()}, {"value", any_value(a.value)}});
    return out;
}

json::object span(const SpanData& s) {
    json::object out{{"traceId", to_hex(s.trace_id)},
                     {"spanId", to_hex(s.span_id)},
                     {"name", s.name},
                     {"kind", static_cast<int>(s.kind)},
                     {"startTimeUnixNano", std::to_string(s.start_unix_nano)},
                     {"endTimeUnixNano", std::to_string(s.end_unix_nano)},
                     {"attributes", attributes(s.attributes)},
                     {"flags", otlp_span_flags(s)}};
    if (!s.trace_state.empty()) out["traceState"] = s.trace_state;
    if (s.has_parent()) out["parentSpanId"] = to_hex(s.parent_span_id);
    if (s.dropped_attributes != 0) out["droppedAttributesCount"] = s.dropped_attributes;
    if (!s.events.empty()) {
        json::array events;
        for (const auto& e : s.events) {
            events.push_back(json::object{{"timeUnixNano", std::to_string(e.time_unix_nano)},
                                          {"name", e.name},
                                          {"attributes", attributes(e.attributes)}});
        }
        out["events"] = std::move(events);
    }
    if (s.dropped_events != 0) out["droppedEventsCount"] = s.dropped_events;
    if (!s.links.empty()) {
        json::array links;
        for (const auto& l : s.links) {
            links.push_back(json::object{{"traceId", to_hex(l.trace_id)},
                                         {"spanId", to_hex(l.span_id)},
                                         {"attributes", attributes(l.attributes)},
                                         {"flags", otlp_link_flags(l)}});
        }
        out["links"] = std::move(links);
    }
    if (s.dropped_links != 0) out["droppedLinksCount"] = s.dropped_links;
    if (s.status != StatusCode::unset) {
        json::object status{{"code", static_cast<int>(s.status)}};
        if (!s.status_message.empty()) status["message"] = s.status_message;
        out["status"] = std::move(status);
    }
    return out;
}

}  // namespace

std::string encode_json(const Attributes& resource, std::span<const SpanData> spans) {
    json::array span_list;
    span_list.reserve(spans.size());
    for (const auto& s : spans) span_list.push_back(span(s));
    json::object scope_spans{{"scope", json::object{{"name", kScopeName}}}, {"spans", std::move(span_list)}};
    json::object resource_spans{{"resource", json::object{{"attributes", attributes(resource)}}},
                                {"scopeSpans", json::array{std::move(scope_spans)}}};
    return json::serialize(json::object{{"resourceSpans", json::array{std::move(resource_spans)}}});
}

}  // namespace mcp::telemetry
