#include "net/proxy.hpp"

#include "util/ascii.hpp"
#include "util/base64.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace mcp::net {

namespace {

std::string lowercase(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), detail::ascii_lower);
    return out;
}

bool is_ipv4_literal(std::string_view host) {
    return !host.empty() && host.find_first_not_of("0123456789.") == std::string_view::npos;
}

bool is_ip_literal(std::string_view host) { return host.find(':') != std::string_view::npos || is_ipv4_literal(host); }

struct NoProxyEntry {
    std::string_view host;
    std::optional<std::uint16_t> port;
};

// "host", "host:port", "[v6]", "[v6]:port", or a bare IPv6 literal.
std::optional<NoProxyEntry> split_entry(std::string_view entry) {
    if (entry.front() == '[') {
        const auto close = entry.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        NoProxyEntry out{entry.substr(1, close - 1), std::nullopt};
        const auto rest = entry.substr(close + 1);
        if (rest.empty()) return out;
        if (rest.front() != ':' || !(out.port = parse_port(rest.substr(1)))) return std::nullopt;
        return out;
    }
    const auto colon = entry.find(':');
    if (colon == std::string_view::npos || entry.find(':', colon + 1) != std::string_view::npos) {
        return NoProxyEntry{entry, std::nullopt};  // no port, or a bare IPv6 literal
    }
    const auto port = parse_port(entry.substr(colon + 1));
    if (!port) return std::nullopt;
    return NoProxyEntry{entry.substr(0, colon), port};
}

std::optional<Url> proxy_url(const std::string& text, const char* what) {
    if (text.empty()) return std::nullopt;
    const auto with_scheme = text.find("://") == std::string::npos ? "http://" + text : text;
    auto url = parse_url(with_scheme);
    if (!url || url->tls) {
        throw std::invalid_argument(std::string(what) + " must be http://[user:password@]host[:port], not " + text);
    }
    return url;
}

std::string setting(const std::string& given, bool from_environment, const Environment& environment, const char* lower,
                    const char* upper) {
    if (!given.empty() || !from_environment) return given;
    if (auto value = environment(lower)) return *value;
    return environment(upper).value_or("");
}

}  // namespace

std::optional<std::string> process_environment(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr) return std::nullopt;
    return std::string(value);
}

ProxyConfig proxy_config(const ProxyOptions& options, const Environment& environment) {
    const bool env = options.from_environment;
    ProxyConfig config;
    config.http = proxy_url(setting(options.http_proxy, env, environment, "http_proxy", "HTTP_PROXY"), "http_proxy");
    config.https =
        proxy_url(setting(options.https_proxy, env, environment, "https_proxy", "HTTPS_PROXY"), "https_proxy");
    config.no_proxy = setting(options.no_proxy, env, environment, "no_proxy", "NO_PROXY");
    config.proxy_loopback = options.proxy_loopback;
    return config;
}

bool no_proxy_matches(std::string_view no_proxy, std::string_view host, std::uint16_t port) {
    if (!host.empty() && host.back() == '.') host.remove_suffix(1);
    while (!no_proxy.empty()) {
        const auto comma = no_proxy.find(',');
        const auto entry_text = lowercase(detail::trim(no_proxy.substr(0, comma)));
        no_proxy.remove_prefix(comma == std::string_view::npos ? no_proxy.size() : comma + 1);
        if (entry_text.empty()) continue;
        if (entry_text == "*") return true;
        auto entry = split_entry(entry_text);
        if (!entry || (entry->port && *entry->port != port)) continue;
        auto name = entry->host;
        if (name.starts_with("*.")) name.remove_prefix(1);
        if (name.starts_with('.')) name.remove_prefix(1);
        if (!name.empty() && name.back() == '.') name.remove_suffix(1);
        if (name.empty()) continue;
        if (host == name) return true;
        // Subdomains, for names only: "0.0.1" must not match 127.0.0.1.
        if (!is_ip_literal(host) && host.size() > name.size() && host.ends_with(name) &&
            host[host.size() - name.size() - 1] == '.') {
            return true;
        }
    }
    return false;
}

bool is_loopback(std::string_view host) {
    if (host == "localhost" || host.ends_with(".localhost") || host == "::1") return true;
    return is_ipv4_literal(host) && host.starts_with("127.");
}

const Url* proxy_for(const ProxyConfig& config, const Url& target) {
    const auto& proxy = target.tls ? config.https : config.http;
    if (!proxy) return nullptr;
    if (!config.proxy_loopback && is_loopback(target.host)) return nullptr;
    if (no_proxy_matches(config.no_proxy, target.host, target.port)) return nullptr;
    return &*proxy;
}

std::string proxy_authorization(const Url& proxy) {
    if (proxy.user.empty()) return {};
    const auto credentials = proxy.user + ":" + proxy.password;
    return "Proxy-Authorization: Basic " + detail::base64_encode(detail::as_bytes(credentials)) + "\r\n";
}

}  // namespace mcp::net
