#pragma once
// Reading request params; every failure is -32602 naming the member.
#include <mcp/protocol/errors.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

namespace mcp::detail {

inline const boost::json::string& require_string(const boost::json::object& params, std::string_view key) {
    const auto* v = params.if_contains(key);
    if (v == nullptr) throw InvalidParams("Missing required parameter: " + std::string(key));
    if (!v->is_string()) throw InvalidParams("Parameter " + std::string(key) + " must be a string");
    return v->get_string();
}

// Nothing when absent; -32602 when present with another type.
inline const boost::json::object* optional_object(const boost::json::object& params, std::string_view key) {
    const auto* v = params.if_contains(key);
    if (v == nullptr || v->is_null()) return nullptr;
    if (!v->is_object()) throw InvalidParams("Parameter " + std::string(key) + " must be an object");
    return &v->get_object();
}

inline std::string_view optional_string(const boost::json::object& params, std::string_view key) {
    const auto* v = params.if_contains(key);
    if (v == nullptr || v->is_null()) return {};
    if (!v->is_string()) throw InvalidParams("Parameter " + std::string(key) + " must be a string");
    return v->get_string();
}

}  // namespace mcp::detail
