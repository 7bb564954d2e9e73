#pragma once
// Absolute http and https URLs, as the client connects to them and names them on the wire.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::net {

struct Url {
    bool tls = false;  // https
    std::string host;  // lowercase; an IPv6 literal without its brackets
    std::uint16_t port = 0;
    std::string target;  // path and query, at least "/"; the fragment is dropped
    std::string user;    // the userinfo, decoded (a proxy's credentials)
    std::string password;

    // "host:port", an IPv6 literal in brackets: a CONNECT request's target.
    std::string authority() const;
    // The Host header: the authority without the scheme's default port.
    std::string host_header() const;
    // "scheme://host:port": what the connection pool keeps connections by.
    std::string origin() const;
    // The request target through a proxy (RFC 9112 §3.2.2): the URL without userinfo or fragment.
    std::string absolute_form() const;
};

// A port number, 1 to 65535, in decimal.
std::optional<std::uint16_t> parse_port(std::string_view text);

// Nothing for a relative URL, another scheme, no host or a port out of range.
std::optional<Url> parse_url(std::string_view text);

// `reference` (absolute, or relative such as "/messages?session=1") resolved against the absolute
// URL `base` (RFC 3986 §5.2), as text; nothing when either does not parse.
std::optional<std::string> resolve_url(std::string_view base, std::string_view reference);

}  // namespace mcp::net
