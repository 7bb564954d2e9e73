#pragma once
// Header checks of the MCP endpoint: DNS-rebinding protection and content negotiation.
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

std::string_view trim(std::string_view s);

// HTTP names and tokens are ASCII: comparing them needs no locale.
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
inline bool ascii_iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i] && ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    }
    return true;
}

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
