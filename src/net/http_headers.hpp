#pragma once
// Header fields in the order they came or were added, looked up by name without regard to case;
// a name may appear more than once (Set-Cookie, WWW-Authenticate).
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::net {

struct HeaderField {
    std::string name;
    std::string value;
};

class HttpHeaders {
public:
    HttpHeaders() = default;
    HttpHeaders(std::initializer_list<HeaderField> fields) : fields_(fields) {}

    void add(std::string name, std::string value) { fields_.push_back({std::move(name), std::move(value)}); }
    // The first value of `name`, if any.
    std::optional<std::string_view> get(std::string_view name) const;
    // Every value of `name`, in order.
    std::vector<std::string_view> get_all(std::string_view name) const;
    bool contains(std::string_view name) const { return get(name).has_value(); }
    const std::vector<HeaderField>& fields() const { return fields_; }

private:
    std::vector<HeaderField> fields_;
};

}  // namespace mcp::net
