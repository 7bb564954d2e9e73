#include "net/url.hpp"

#include "util/ascii.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <charconv>

namespace mcp::net {

namespace {

std::uint16_t default_port(bool tls) { return tls ? 443 : 80; }

// The host as a URL names it: an IPv6 literal in brackets.
std::string bracketed(const std::string& host) {
    if (host.find(':') == std::string::npos) return host;
    std::string out;
    out.reserve(host.size() + 2);
    out.push_back('[');
    out.append(host);
    out.push_back(']');
    return out;
}

}  // namespace

std::optional<std::uint16_t> parse_port(std::string_view text) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value == 0 || value > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(value);
}

std::string Url::authority() const {
    auto out = bracketed(host);
    out.push_back(':');
    out.append(std::to_string(port));
    return out;
}

std::string Url::host_header() const { return port == default_port(tls) ? bracketed(host) : authority(); }

std::string Url::origin() const { return (tls ? "https://" : "http://") + authority(); }

std::string Url::absolute_form() const { return (tls ? "https://" : "http://") + host_header() + target; }

std::optional<Url> parse_url(std::string_view text) {
    const auto parsed = boost::urls::parse_uri(text);
    if (!parsed || !parsed->has_authority() || parsed->encoded_host().empty()) return std::nullopt;
    Url url;
    if (parsed->scheme_id() == boost::urls::scheme::https) {
        url.tls = true;
    } else if (parsed->scheme_id() != boost::urls::scheme::http) {
        return std::nullopt;
    }
    url.host = parsed->host_type() == boost::urls::host_type::ipv6 ? std::string(parsed->host_address())
                                                                   : std::string(parsed->encoded_host());
    std::transform(url.host.begin(), url.host.end(), url.host.begin(), detail::ascii_lower);
    if (parsed->has_port()) {
        const auto port = parse_port(parsed->port());
        if (!port) return std::nullopt;
        url.port = *port;
    } else {
        url.port = default_port(url.tls);
    }
    url.target = parsed->encoded_path().empty() ? "/" : std::string(parsed->encoded_path());
    if (parsed->has_query()) {
        url.target.push_back('?');
        url.target.append(parsed->encoded_query());
    }
    if (parsed->has_userinfo()) {
        url.user = parsed->user();
        url.password = parsed->password();
    }
    return url;
}

std::optional<std::string> resolve_url(std::string_view base, std::string_view reference) {
    const auto b = boost::urls::parse_uri(base);
    const auto r = boost::urls::parse_uri_reference(reference);
    if (!b || !r) return std::nullopt;
    boost::urls::url resolved;
    if (!boost::urls::resolve(*b, *r, resolved)) return std::nullopt;
    return std::string(resolved.buffer());
}

}  // namespace mcp::net
