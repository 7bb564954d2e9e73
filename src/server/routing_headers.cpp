#include "server/routing_headers.hpp"

#include "util/base64.hpp"

#include <mcp/protocol/errors.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kSentinelStart = "=?base64?";
constexpr std::string_view kSentinelEnd = "?=";

[[noreturn]] void mismatch(std::string message) {
    throw Error(error_code::header_mismatch, "HeaderMismatch: " + std::move(message));
}

bool is_tchar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

void check_header(const std::optional<std::string>& header, std::string_view name, std::string_view body) {
    if (!header) mismatch("missing required header " + std::string(name));
    const auto decoded = decode_header_value(*header);
    if (!decoded) mismatch(std::string(name) + " header has invalid characters or encoding");
    if (*decoded != body) {
        mismatch(std::string(name) + " header value '" + *decoded + "' does not match the body value '" +
                 std::string(body) + "'");
    }
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

const boost::json::value* at_path(const boost::json::object& root, const std::vector<std::string>& path) {
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

bool same_value(const std::string& header, const boost::json::value& body, const std::string& type) {
    if (type == "string") return body.is_string() && body.get_string() == header;
    if (type == "boolean") return body.is_bool() && header == (body.get_bool() ? "true" : "false");
    // Integers compare as numbers: "42.0" matches 42.
    double h = 0;
    auto [end, ec] = std::from_chars(header.data(), header.data() + header.size(), h);
    if (ec != std::errc() || end != header.data() + header.size() || !std::isfinite(h)) return false;
    if (body.is_int64()) return h == static_cast<double>(body.get_int64());
    if (body.is_uint64()) return h == static_cast<double>(body.get_uint64());
    if (body.is_double()) return h == body.get_double();
    return false;
}

}  // namespace

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

void check_routing_headers(const jsonrpc::Message& request, std::string_view entity_param,
                           const RequestHeaders& headers, std::string_view meta_version) {
    if (!headers.protocol_version) mismatch("missing required header MCP-Protocol-Version");
    if (*headers.protocol_version != meta_version) {
        mismatch("MCP-Protocol-Version header '" + *headers.protocol_version +
                 "' does not match _meta protocolVersion '" + std::string(meta_version) + "'");
    }
    check_header(headers.method, "Mcp-Method", request.method);
    if (entity_param.empty() || request.params == nullptr) return;
    // Without the body value there is nothing to compare; the body error follows.
    const auto* body = request.params->if_contains(entity_param);
    if (body == nullptr || !body->is_string()) return;
    check_header(headers.name, "Mcp-Name", body->get_string());
}

std::vector<HeaderParam> header_params_of(const boost::json::object& input_schema) {
    std::vector<HeaderParam> out;
    std::vector<std::string> path;
    collect(input_schema, path, true, out);
    return out;
}

void check_param_headers(const std::vector<HeaderParam>& params, const boost::json::object& arguments,
                         const RequestHeaders& headers) {
    for (const auto& p : params) {
        const auto* body = at_path(arguments, p.path);
        if (body == nullptr || body->is_null()) continue;  // no value, no header expected
        const std::string header_name = "Mcp-Param-" + p.name;
        auto it = std::find_if(headers.params.begin(), headers.params.end(),
                               [&](const auto& h) { return h.first == p.name_lower; });
        if (it == headers.params.end()) mismatch("missing required header " + header_name);
        const auto decoded = decode_header_value(it->second);
        if (!decoded) mismatch(header_name + " header has invalid characters or encoding");
        if (!same_value(*decoded, *body, p.type)) mismatch(header_name + " header does not match the body value");
    }
}

}  // namespace mcp::detail
