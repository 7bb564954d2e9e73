#include "server/routing_headers.hpp"

#include <mcp/protocol/errors.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace mcp::detail {

namespace {

[[noreturn]] void mismatch(std::string message) {
    throw Error(error_code::header_mismatch, "HeaderMismatch: " + std::move(message));
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

void check_param_headers(const std::vector<HeaderParam>& params, const boost::json::object& arguments,
                         const RequestHeaders& headers) {
    for (const auto& p : params) {
        const auto* body = value_at_path(arguments, p.path);
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
