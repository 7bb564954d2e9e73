#include "protocol/param_headers.hpp"

#include "util/base64.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kSentinelStart = "=?base64?";
constexpr std::string_view kSentinelEnd = "?=";

bool is_tchar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// Keywords whose values are subschemas (or maps/arrays of them) other than "properties".
constexpr std::array<std::string_view, 11> kSchemaKeywords{"items",
                                                           "additionalProperties",
                                                           "not",
                                                           "if",
                                                           "then",
                                                           "else",
                                                           "contains",
                                                           "propertyNames",
                                                           "unevaluatedItems",
                                                           "unevaluatedProperties",
                                                           "contentSchema"};
constexpr std::array<std::string_view, 4> kSchemaArrays{"prefixItems", "allOf", "anyOf", "oneOf"};
constexpr std::array<std::string_view, 4> kSchemaMaps{"$defs", "definitions", "patternProperties", "dependentSchemas"};

void collect(const boost::json::value& node, std::vector<std::string>& path, bool reachable,
             std::vector<HeaderParam>& out) {
    const auto* schema = node.if_object();
    if (schema == nullptr) return;
    if (const auto* header = schema->if_contains("x-mcp-header")) {
        if (!reachable || path.empty()) {
            throw std::invalid_argument(
                "x-mcp-header is only allowed on properties reached through \"properties\" alone");
        }
        if (!header->is_string() || header->get_string().empty() ||
            !std::all_of(header->get_string().begin(), header->get_string().end(), is_tchar)) {
            throw std::invalid_argument("x-mcp-header must be a non-empty HTTP token");
        }
        const auto* type = schema->if_contains("type");
        const std::string_view t = type != nullptr && type->is_string() ? std::string_view(type->get_string()) : "";
        if (t != "string" && t != "integer" && t != "boolean") {
            throw std::invalid_argument("x-mcp-header is only allowed on string, integer or boolean properties");
        }
        HeaderParam p{std::string(header->get_string()), lower(header->get_string()), path, std::string(t)};
        if (std::any_of(out.begin(), out.end(), [&](const HeaderParam& q) { return q.name_lower == p.name_lower; })) {
            throw std::invalid_argument("x-mcp-header \"" + p.name + "\" is declared twice");
        }
        out.push_back(std::move(p));
    }
    if (const auto* props = schema->if_contains("properties"); props && props->is_object()) {
        for (const auto& kv : props->get_object()) {
            path.emplace_back(kv.key());
            collect(kv.value(), path, reachable, out);
            path.pop_back();
        }
    }
    for (auto key : kSchemaKeywords) {
        if (const auto* sub = schema->if_contains(key)) collect(*sub, path, false, out);
    }
    for (auto key : kSchemaArrays) {
        if (const auto* arr = schema->if_contains(key); arr && arr->is_array()) {
            for (const auto& sub : arr->get_array()) collect(sub, path, false, out);
        }
    }
    for (auto key : kSchemaMaps) {
        if (const auto* map = schema->if_contains(key); map && map->is_object()) {
            for (const auto& kv : map->get_object()) collect(kv.value(), path, false, out);
        }
    }
}

std::string header_text(const boost::json::value& v) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_bool()) return v.get_bool() ? "true" : "false";
    if (v.is_int64()) return std::to_string(v.get_int64());
    if (v.is_uint64()) return std::to_string(v.get_uint64());
    return boost::json::serialize(v);
}

}  // namespace

const boost::json::value* value_at_path(const boost::json::object& root, const std::vector<std::string>& path) {
    const boost::json::object* node = &root;
    const boost::json::value* value = nullptr;
    for (const auto& key : path) {
        if (node == nullptr) return nullptr;
        value = node->if_contains(key);
        if (value == nullptr) return nullptr;
        node = value->if_object();
    }
    return value;
}

std::optional<std::string> decode_header_value(std::string_view raw) {
    for (unsigned char c : raw) {
        if (!(c == '\t' || (c >= 0x20 && c <= 0x7E))) return std::nullopt;
    }
    if (raw.size() >= kSentinelStart.size() + kSentinelEnd.size() && raw.starts_with(kSentinelStart) &&
        raw.ends_with(kSentinelEnd)) {
        return base64_decode(
            raw.substr(kSentinelStart.size(), raw.size() - kSentinelStart.size() - kSentinelEnd.size()));
    }
    return std::string(raw);
}

std::string encode_header_value(std::string_view value) {
    const bool visible =
        std::all_of(value.begin(), value.end(), [](unsigned char c) { return c >= 0x20 && c <= 0x7E; });
    const bool padded = !value.empty() && (value.front() == ' ' || value.back() == ' ');
    const bool sentinel_like = value.starts_with(kSentinelStart) && value.ends_with(kSentinelEnd);
    if (visible && !padded && !sentinel_like) return std::string(value);
    return std::string(kSentinelStart) + base64_encode(as_bytes(value)) + std::string(kSentinelEnd);
}

std::vector<HeaderParam> header_params_of(const boost::json::object& input_schema) {
    std::vector<HeaderParam> out;
    std::vector<std::string> path;
    collect(input_schema, path, true, out);
    return out;
}

std::vector<std::pair<std::string, std::string>> param_header_values(const std::vector<HeaderParam>& params,
                                                                     const boost::json::object& arguments) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : params) {
        const auto* value = value_at_path(arguments, p.path);
        if (value != nullptr && !value->is_null()) out.emplace_back(p.name, header_text(*value));
    }
    return out;
}

}  // namespace mcp::detail
