#pragma once
// Server-Sent Events framing, as the server writes it (net::SseParser reads it).
#include <string>
#include <string_view>

namespace mcp::net {

// One event: optional id, "event: message", the JSON on one data line (JSON text has no raw
// newlines), and the blank line that ends it.
std::string sse_event(std::string_view data, std::string_view id = {});
// The priming event of a resumable stream (SEP-1699): an id and empty data, after a retry hint.
std::string sse_priming(std::string_view id, long retry_ms);
// A comment: keeps idle connections open through proxies.
std::string sse_comment();

}  // namespace mcp::net
