#pragma once
// CORS for browser clients (HttpOptions::cors_origins): the preflight answer, and the headers that
// let a page from an allowed origin read the endpoint's responses and the headers MCP needs.
#include "transport/http/http_context.hpp"

#include <mcp/server/interceptor.hpp>

#include <string_view>

namespace mcp::detail {

// Whether the request's Origin is one of the configured CORS origins.
bool cors_allowed(const Request& request, const HttpOptions& options);
// The headers of every response to an allowed origin; none for other requests.
HeaderList cors_headers(const Request& request, const HttpOptions& options);
// What a 204 answer to a preflight (OPTIONS) from an allowed origin adds to cors_headers.
HeaderList cors_preflight_headers(const Request& request);

}  // namespace mcp::detail
