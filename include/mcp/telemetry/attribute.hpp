#pragma once
// A span attribute (OpenTelemetry's key and typed value): what handlers add to their span through
// Context::set_span_attribute and Context::add_span_event.
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mcp::telemetry {

// A string, a boolean, a 64-bit integer or a double. A string literal stays a string (a plain
// variant would turn it into a bool).
struct AttributeValue : std::variant<std::string, bool, std::int64_t, double> {
    using Base = std::variant<std::string, bool, std::int64_t, double>;
    AttributeValue() = default;                                         // an empty string
    AttributeValue(std::string text) : Base(std::move(text)) {}         // NOLINT(google-explicit-constructor)
    AttributeValue(std::string_view text) : Base(std::string(text)) {}  // NOLINT(google-explicit-constructor)
    AttributeValue(const char* text) : Base(std::string(text)) {}       // NOLINT(google-explicit-constructor)
    AttributeValue(bool flag) : Base(flag) {}                           // NOLINT(google-explicit-constructor)
    template <std::integral I>
    requires(!std::same_as<I, bool>) AttributeValue(I number)
        : Base(static_cast<std::int64_t>(number)) {}  // NOLINT(google-explicit-constructor)
    AttributeValue(double number) : Base(number) {}   // NOLINT(google-explicit-constructor)
};

struct Attribute {
    std::string key;
    AttributeValue value;
};

using Attributes = std::vector<Attribute>;

}  // namespace mcp::telemetry
