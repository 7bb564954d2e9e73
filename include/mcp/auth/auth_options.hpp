#pragma once
// OAuth 2.1 resource server settings for Streamable HTTP (docs/adr/0014-authorization.md): which
// authorization server issues the tokens this server accepts, and what each request needs.
// mcp::run fills them from the --auth-* flags.
#include <chrono>
#include <string>
#include <vector>

namespace mcp {

struct AuthOptions {
    // The issuer (iss) of accepted tokens. Its metadata (RFC 8414, or OpenID Connect discovery)
    // names the JWKS and the introspection endpoint. Setting it turns bearer validation on.
    std::string issuer;
    // The authorization servers the protected resource metadata names; empty: the issuer.
    std::vector<std::string> authorization_servers;
    // The aud a token must name; empty: this resource's canonical URI (HttpOptions::public_url).
    std::string audience;
    // The JWKS, when discovery should be skipped.
    std::string jwks_uri;
    // RFC 7662 introspection for opaque tokens, with this server's client credentials: a file
    // holding "client_id:client_secret" (percent-encoded as in HTTP Basic) on its first line.
    std::string introspection_url;
    std::string client_credentials_file;
    // Scopes every request needs, whatever it calls.
    std::vector<std::string> scopes;
    // Trust these CA certificates (PEM) for the authorization server instead of the system's.
    std::string ca_file;
    // Clock skew allowed on exp, nbf and iat.
    std::chrono::milliseconds leeway{60'000};
    // Optional members of the protected resource metadata (RFC 9728 §2).
    std::string resource_name;
    std::string resource_documentation;

    bool enabled() const { return !issuer.empty() || !jwks_uri.empty() || !introspection_url.empty(); }
};

}  // namespace mcp
