#pragma once
// Which proxy, if any, a request goes through: the options, else the environment (https_proxy,
// http_proxy, no_proxy, lowercase first, as curl reads them), with no_proxy's exceptions.
#include "net/url.hpp"

#include <mcp/net/http_options.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::net {

struct ProxyConfig {
    std::optional<Url> http;   // for http:// targets
    std::optional<Url> https;  // for https:// targets, through a CONNECT tunnel
    std::string no_proxy;
    bool proxy_loopback = false;
};

// Reads one environment variable; nothing when it is unset.
using Environment = std::function<std::optional<std::string>(const char* name)>;
std::optional<std::string> process_environment(const char* name);

// Throws std::invalid_argument for a proxy that is not "[http://][user:password@]host[:port]".
ProxyConfig proxy_config(const ProxyOptions& options, const Environment& environment = process_environment);

// Whether a no_proxy list names `host` (lowercase, an IPv6 literal without brackets) on `port`.
bool no_proxy_matches(std::string_view no_proxy, std::string_view host, std::uint16_t port);
// localhost and its subdomains, 127.0.0.0/8 and ::1.
bool is_loopback(std::string_view host);

// The proxy for a request to `target`, or null for a direct connection.
const Url* proxy_for(const ProxyConfig& config, const Url& target);

// "Proxy-Authorization: Basic ...\r\n" for a proxy URL with credentials, else nothing.
std::string proxy_authorization(const Url& proxy);

}  // namespace mcp::net
