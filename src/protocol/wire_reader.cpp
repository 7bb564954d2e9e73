#include "protocol/wire_reader.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

[[noreturn]] void malformed(const std::string& what) { throw std::invalid_argument(what); }

const boost::json::value* present(const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && !v->is_null() ? v : nullptr;
}

std::string quoted(std::string_view key) {
    std::string out;
    out.reserve(key.size() + 2);
    out.append(1, '"').append(key).append(1, '"');
    return out;
}

}  // namespace

const boost::json::object& object_of(const boost::json::value& v, std::string_view what) {
    if (!v.is_object()) malformed(std::string(what) + " must be an object");
    return v.get_object();
}

std::string required_string(const boost::json::object& o, std::string_view key) {
    if (present(o, key) == nullptr) malformed("missing " + quoted(key));
    return optional_string(o, key);
}

std::string optional_string(const boost::json::object& o, std::string_view key) {
    const auto* v = present(o, key);
    if (v == nullptr) return {};
    if (!v->is_string()) malformed(quoted(key) + " must be a string");
    return std::string(v->get_string());
}

std::optional<double> optional_number(const boost::json::object& o, std::string_view key) {
    const auto* v = present(o, key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number()) malformed(quoted(key) + " must be a number");
    return v->to_number<double>();
}

std::optional<std::int64_t> optional_integer(const boost::json::object& o, std::string_view key) {
    const auto* v = present(o, key);
    if (v == nullptr) return std::nullopt;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
        return static_cast<std::int64_t>(v->get_uint64());
    malformed(quoted(key) + " must be an integer");
}

bool optional_bool(const boost::json::object& o, std::string_view key) {
    const auto* v = present(o, key);
    if (v == nullptr) return false;
    if (!v->is_bool()) malformed(quoted(key) + " must be a boolean");
    return v->get_bool();
}

const boost::json::array* optional_array(const boost::json::object& o, std::string_view key) {
    const auto* v = present(o, key);
    if (v == nullptr) return nullptr;
    if (!v->is_array()) malformed(quoted(key) + " must be an array");
    return &v->get_array();
}

boost::json::object optional_object(const boost::json::object& o, std::string_view key) {
    const auto* v = present(o, key);
    if (v == nullptr) return {};
    return object_of(*v, quoted(key));
}

}  // namespace mcp::detail
