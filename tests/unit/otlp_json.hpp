#pragma once
// Reading what an OTLP/HTTP JSON export carries, for the tests' receivers: its spans, and a span's
// string attributes.
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::test {

// Every span of an ExportTraceServiceRequest in proto3 JSON.
inline std::vector<boost::json::object> otlp_json_spans(std::string_view body) {
    const auto document = boost::json::parse(body);
    std::vector<boost::json::object> out;
    for (const auto& rs : document.at("resourceSpans").as_array())
        for (const auto& ss : rs.at("scopeSpans").as_array())
            for (const auto& span : ss.at("spans").as_array()) out.push_back(span.as_object());
    return out;
}

// A string attribute of a span, "" when it has none of that key.
inline std::string string_attribute(const boost::json::object& span, std::string_view key) {
    if (!span.contains("attributes")) return {};
    for (const auto& a : span.at("attributes").as_array()) {
        if (a.at("key").as_string() == key) {
            const auto& value = a.at("value").as_object();
            if (const auto* s = value.if_contains("stringValue")) return std::string(s->as_string());
        }
    }
    return {};
}

}  // namespace mcp::test
