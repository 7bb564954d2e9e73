#pragma once
// Header checks of the MCP endpoint: DNS-rebinding protection and content negotiation.
#include "util/ascii.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// The host part of a Host header ("example.com:8080", "[::1]:3000") or of an Origin
// ("http://localhost:5173"), lowercased; empty when it cannot be parsed.
std::string host_of_host_header(std::string_view host);
std::string host_of_origin(std::string_view origin);
// Hostnames compare case-insensitively; any port is accepted.
bool host_allowed(std::string_view host_header, const std::vector<std::string>& allowed);
// An absent Origin is allowed (not a browser); a present one must name an allowed host.
bool origin_allowed(std::string_view origin, const std::vector<std::string>& allowed);

// Whether an Accept header admits `type` ("application/json"), wildcards included. An absent
// Accept admits everything.
bool accepts(std::string_view accept, std::string_view type);
bool is_json_content_type(std::string_view content_type);

}  // namespace mcp::detail
