#include "transport/http/cors.hpp"

#include "transport/http/guards.hpp"

#include <algorithm>
#include <array>

namespace mcp::detail {

namespace {

std::string_view origin_of(const Request& request) {
    const auto it = request.find(boost::beast::http::field::origin);
    return it == request.end() ? std::string_view() : trim(std::string_view(it->value().data(), it->value().size()));
}

// The request headers a client of either era sends.
bool allowed_request_header(std::string_view name) {
    static constexpr std::array kAllowed{"accept",      "authorization", "content-type",         "last-event-id",
                                         "mcp-method",  "mcp-name",      "mcp-protocol-version", "mcp-session-id",
                                         "traceparent", "tracestate"};
    if (name.size() > 10 && ascii_iequals(name.substr(0, 10), "mcp-param-")) return true;
    return std::any_of(kAllowed.begin(), kAllowed.end(), [&](std::string_view a) { return ascii_iequals(a, name); });
}

}  // namespace

bool cors_allowed(const Request& request, const HttpOptions& options) {
    const auto origin = origin_of(request);
    return !origin.empty() &&
           std::find(options.cors_origins.begin(), options.cors_origins.end(), origin) != options.cors_origins.end();
}

HeaderList cors_headers(const Request& request, const HttpOptions& options) {
    if (options.cors_origins.empty()) return {};
    if (!cors_allowed(request, options)) return {{"Vary", "Origin"}};
    return {{"Access-Control-Allow-Origin", std::string(origin_of(request))},
            {"Access-Control-Expose-Headers", "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After"},
            {"Vary", "Origin"}};
}

HeaderList cors_preflight_headers(const Request& request) {
    std::string requested;
    const auto it = request.find(boost::beast::http::field::access_control_request_headers);
    std::string_view asked =
        it == request.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
    while (!asked.empty()) {
        const auto comma = asked.find(',');
        const auto name = trim(asked.substr(0, comma));
        asked = comma == std::string_view::npos ? std::string_view() : asked.substr(comma + 1);
        if (!name.empty() && allowed_request_header(name))
            requested += (requested.empty() ? "" : ", ") + std::string(name);
    }
    HeaderList headers{{"Access-Control-Allow-Methods", "GET, POST, DELETE"}};
    if (!requested.empty()) headers.emplace_back("Access-Control-Allow-Headers", requested);
    headers.emplace_back("Access-Control-Max-Age", "600");
    return headers;
}

}  // namespace mcp::detail
