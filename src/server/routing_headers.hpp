#pragma once
// Streamable HTTP (2026-07-28) request metadata headers checked against the body: -32020
// HeaderMismatch for anything missing, malformed or different.
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/sink.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// A header value, decoded when it uses the =?base64?…?= sentinel (strict, padded base64 of UTF-8).
// Nothing when it holds characters a header value may not (only visible ASCII, space and tab are
// allowed) or the sentinel's content is not valid base64.
std::optional<std::string> decode_header_value(std::string_view raw);

// MCP-Protocol-Version (against the _meta version), Mcp-Method, and Mcp-Name against the param
// naming the method's entity (MethodInfo::entity_param; none when empty).
void check_routing_headers(const jsonrpc::Message& request, std::string_view entity_param,
                           const RequestHeaders& headers, std::string_view meta_version);

// A tool parameter mirrored into an Mcp-Param-<name> header (its schema has "x-mcp-header").
struct HeaderParam {
    std::string name;               // as declared
    std::string name_lower;         // for case-insensitive header lookup
    std::vector<std::string> path;  // property chain from the arguments' root
    std::string type;               // "string", "integer" or "boolean"
};

// The x-mcp-header annotations of an input schema. Throws std::invalid_argument for one the
// spec makes invalid: empty or not an HTTP token, duplicated (case-insensitively), on a type
// other than string/integer/boolean, or not reachable from the root through "properties" alone.
std::vector<HeaderParam> header_params_of(const boost::json::object& input_schema);

// Every annotated argument present in the body must come with its header, equal after decoding
// (integers compared as numbers).
void check_param_headers(const std::vector<HeaderParam>& params, const boost::json::object& arguments,
                         const RequestHeaders& headers);

}  // namespace mcp::detail
