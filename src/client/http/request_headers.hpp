#pragma once
// The header fields of each request the HTTP transports send: what Streamable HTTP mirrors from a
// message (2026-07-28 request metadata: MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*),
// a 2025 session's fields, and the application's own fields. Pure.
#include "net/http_headers.hpp"

#include <mcp/client/transport.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

using CustomHeaders = std::vector<std::pair<std::string, std::string>>;

// Throws std::invalid_argument for a field the transport sets itself, a name that is no HTTP
// token or a value holding CR, LF or NUL.
void check_custom_headers(const CustomHeaders& headers);

// MCP-Protocol-Version exists from 2025-06-18 on; a 2025-03-26 or 2024-11-05 peer never sees it.
bool has_version_header(std::string_view version);

// A message's POST to the MCP endpoint. `session_id`: the 2025 session it belongs to, if any.
net::HttpHeaders post_headers(const OutboundMessage& message, std::string_view session_id, const CustomHeaders& custom);
// A GET of the endpoint's SSE stream in a 2025 session, resuming after `last_event_id` when set.
net::HttpHeaders stream_headers(std::string_view session_id, std::string_view version, std::string_view last_event_id,
                                const CustomHeaders& custom);
// The DELETE that ends a 2025 session.
net::HttpHeaders end_session_headers(std::string_view session_id, std::string_view version,
                                     const CustomHeaders& custom);
// 2024-11-05 HTTP+SSE: the GET of the SSE stream, and a message's POST to the endpoint it named.
net::HttpHeaders legacy_stream_headers(const CustomHeaders& custom);
net::HttpHeaders legacy_post_headers(const CustomHeaders& custom);

}  // namespace mcp::detail
