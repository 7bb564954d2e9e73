#pragma once
// Streamable HTTP (2026-07-28) request metadata headers checked against the body: -32020
// HeaderMismatch for anything missing, malformed or different.
#include "protocol/param_headers.hpp"

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/sink.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// MCP-Protocol-Version (against the _meta version), Mcp-Method, and Mcp-Name against the param
// naming the method's entity (MethodInfo::entity_param; none when empty).
void check_routing_headers(const jsonrpc::Message& request, std::string_view entity_param,
                           const RequestHeaders& headers, std::string_view meta_version);

// Every annotated argument present in the body must come with its header, equal after decoding
// (integers compared as numbers).
void check_param_headers(const std::vector<HeaderParam>& params, const boost::json::object& arguments,
                         const RequestHeaders& headers);

}  // namespace mcp::detail
