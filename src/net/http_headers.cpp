#include "net/http_headers.hpp"

#include "util/ascii.hpp"

namespace mcp::net {

using detail::ascii_iequals;

std::optional<std::string_view> HttpHeaders::get(std::string_view name) const {
    for (const auto& field : fields_) {
        if (ascii_iequals(field.name, name)) return field.value;
    }
    return std::nullopt;
}

std::vector<std::string_view> HttpHeaders::get_all(std::string_view name) const {
    std::vector<std::string_view> values;
    for (const auto& field : fields_) {
        if (ascii_iequals(field.name, name)) values.emplace_back(field.value);
    }
    return values;
}

}  // namespace mcp::net
