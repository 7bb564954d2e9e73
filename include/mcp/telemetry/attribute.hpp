#pragma once
// A span attribute (OpenTelemetry's key and typed value): what handlers add to their span through
// Context::set_span_attribute and Context::add_span_event.
#include <algorithm>
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

// An attribute's name: a string literal is borrowed (it lives as long as the program), any other
// text is copied. So the names of the conventions cost no allocation per span.
class AttributeKey {
public:
    AttributeKey() = default;
    consteval AttributeKey(const char* literal) : text_(literal) {}           // NOLINT(google-explicit-constructor)
    AttributeKey(std::string_view name) : text_(copy(name)), owned_(true) {}  // NOLINT(google-explicit-constructor)
    AttributeKey(const std::string& name)
        : AttributeKey(std::string_view(name)) {}  // NOLINT(google-explicit-constructor)
    AttributeKey(const AttributeKey& other)
        : text_(other.owned_ ? copy(other.text_) : other.text_), owned_(other.owned_) {}
    AttributeKey(AttributeKey&& other) noexcept
        : text_(std::exchange(other.text_, {})), owned_(std::exchange(other.owned_, false)) {}
    AttributeKey& operator=(AttributeKey other) noexcept {
        std::swap(text_, other.text_);
        std::swap(owned_, other.owned_);
        return *this;
    }
    constexpr ~AttributeKey() {
        if (owned_) delete[] text_.data();
    }

    std::string_view view() const { return text_; }
    operator std::string_view() const { return text_; }  // NOLINT(google-explicit-constructor)
    friend bool operator==(const AttributeKey& a, const AttributeKey& b) { return a.text_ == b.text_; }
    friend bool operator==(const AttributeKey& a, std::string_view b) { return a.text_ == b; }
    friend bool operator==(const AttributeKey& a, const char* b) { return a.text_ == b; }

private:
    static std::string_view copy(std::string_view name) {
        char* text = new char[name.size()];
        std::copy(name.begin(), name.end(), text);
        return {text, name.size()};
    }
    std::string_view text_;
    bool owned_ = false;  // text_ was copied here
};

struct Attribute {
    AttributeKey key;
    AttributeValue value;
};

using Attributes = std::vector<Attribute>;

}  // namespace mcp::telemetry
