#pragma once
// A request's head as it goes on the wire.
#include "net/http_message.hpp"
#include "net/url.hpp"

#include <string>
#include <string_view>

namespace mcp::net {

// The request line and fields of `request` to `url`, with Host, User-Agent (unless set) and
// Content-Length (a body, or a method that carries one). Through a proxy to an http URL, the
// target is in absolute form and the proxy's credentials go along. Throws HttpError
// (invalid_request) for a method or a field that cannot be sent as it is.
std::string request_head(const HttpRequest& request, const Url& url, const Url* proxy, std::string_view user_agent);

}  // namespace mcp::net
