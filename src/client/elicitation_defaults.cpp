#include "client/elicitation_defaults.hpp"

#include <array>
#include <string_view>

namespace mcp::detail {

namespace {

constexpr std::array<std::string_view, 4> kPrimitive{"string", "integer", "number", "boolean"};

bool primitive(const boost::json::object& property) {
    const auto* type = property.if_contains("type");
    if (type == nullptr || !type->is_string()) return false;
    for (auto t : kPrimitive) {
        if (type->get_string() == t) return true;
    }
    return false;
}

}  // namespace

void fill_defaults(const boost::json::object& requested_schema, boost::json::object& content) {
    const auto* properties = requested_schema.if_contains("properties");
    if (properties == nullptr || !properties->is_object()) return;
    for (const auto& kv : properties->get_object()) {
        const auto* property = kv.value().if_object();
        if (property == nullptr || !primitive(*property) || content.contains(kv.key())) continue;
        if (const auto* fallback = property->if_contains("default")) content[kv.key()] = *fallback;
    }
}

}  // namespace mcp::detail
