#pragma once
// OAuth 2.1 for the client's HTTP transports: the client authorizes itself the way the MCP
// authorization specification says (2025-06-18 on, and the 2025-03-26 fallbacks).
//
// On a 401 the transport reads WWW-Authenticate, finds the protected resource metadata (RFC 9728)
// and the authorization server's (RFC 8414, OpenID discovery), registers (pre-registered
// credentials, a Client ID Metadata Document, or Dynamic Client Registration, RFC 7591), gets a
// token (authorization code with PKCE S256, or client credentials) for the resource (RFC 8707),
// and sends the request again with it. A 403 `insufficient_scope` asks again with the union of the
// scopes. Refresh tokens are used before asking the user again; one renewal runs at a time,
// however many requests met the 401.
//
//   mcp::HttpServerParams params{.url = "https://mcp.example.com/mcp"};
//   params.oauth = mcp::OAuthOptions{.client_metadata_url = "https://app.example.com/client.json"};
//   mcp::Client client(std::make_shared<mcp::HttpTransport>(params));
//   client.connect();  // prints the URL to open, and waits for the browser on 127.0.0.1
//
// A token is sent to the origin of the MCP endpoint only, never elsewhere (the HTTP client follows
// no redirect); tokens, secrets and codes are never logged.
#include <mcp/net/http_options.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mcp {

// What is kept for one protected resource (an MCP endpoint): the client's registration with the
// authorization server that guards it, and its tokens. A registration belongs to its issuer: when
// the resource names another authorization server, both are dropped and the client registers again.
struct StoredAuthorization {
    std::string issuer;     // the authorization server the registration and the tokens are from
    std::string client_id;  // empty: not registered
    std::string client_secret;
    std::string token_endpoint_auth_method;  // client_secret_basic, client_secret_post, none, private_key_jwt
    std::string access_token;                // empty: none yet
    std::string token_type;                  // Bearer, or DPoP (bound to the transport's key)
    std::string refresh_token;
    std::string scope;            // the scopes asked for, space-separated
    std::int64_t expires_at = 0;  // Unix seconds; 0: not said
};

// Where authorizations are kept, by the resource's URL. Called from the transport's authorization
// thread, one call at a time per transport; a store shared by several transports must lock.
class TokenStore {
public:
    virtual ~TokenStore() = default;
    virtual std::optional<StoredAuthorization> load(const std::string& resource) = 0;
    virtual void save(const std::string& resource, const StoredAuthorization& authorization) = 0;
    virtual void erase(const std::string& resource) = 0;
};

// In memory, for the life of the process (the default).
class MemoryTokenStore final : public TokenStore {
public:
    std::optional<StoredAuthorization> load(const std::string& resource) override;
    void save(const std::string& resource, const StoredAuthorization& authorization) override;
    void erase(const std::string& resource) override;

private:
    std::mutex mutex_;
    std::unordered_map<std::string, StoredAuthorization> entries_;
};

// A JSON file only its owner may read and write (0600, replaced whole on each save: written to a
// temporary file beside it, then renamed). Throws std::runtime_error when it cannot be written.
class FileTokenStore final : public TokenStore {
public:
    explicit FileTokenStore(std::string path);
    std::optional<StoredAuthorization> load(const std::string& resource) override;
    void save(const std::string& resource, const StoredAuthorization& authorization) override;
    void erase(const std::string& resource) override;

private:
    std::string path_;
    std::mutex mutex_;
};

// An authorization request the user must complete in a browser.
struct AuthorizationPrompt {
    std::string url;           // the authorization endpoint with every parameter
    std::string redirect_uri;  // where the authorization server will send the browser back
    std::string state;         // the value the redirect must carry back
};

// A token the authorization server issued, for an application's own record (never the token).
struct TokenEvent {
    std::string grant_type;  // authorization_code, refresh_token, client_credentials
    std::string issuer;
    std::string scope;
};

struct OAuthOptions {
    enum class Grant {
        authorization_code,  // a user authorizes in a browser
        client_credentials,  // the client acts for itself (pre-registered credentials needed)
        // RFC 7523 §2.1: an assertion the client holds (a workload's identity token, SEP-1933)
        // is exchanged for an access token; `assertion` gives it.
        jwt_bearer,
        // Enterprise-managed authorization (SEP-990): the user's ID token at the enterprise's
        // identity provider is exchanged there (RFC 8693) for an identity assertion grant (ID-JAG),
        // which the authorization server takes as a jwt-bearer assertion; `identity_provider`.
        identity_assertion,
    };
    Grant grant = Grant::authorization_code;

    // Pre-registered credentials: used with every authorization server, unless `client_issuer`
    // names the one they belong to. An empty secret is a public client.
    std::string client_id;
    std::string client_secret;
    std::string client_issuer;
    // private_key_jwt (RFC 7523 §2.2): a PEM private key (PKCS#8 or traditional) the client signs
    // its assertions with, by `signing_algorithm` (ES256, RS256 or EdDSA), instead of a secret.
    std::string private_key_pem;
    std::string signing_algorithm = "ES256";

    // Grant::jwt_bearer: the assertion, asked for before each token request (it may rotate).
    std::function<std::string()> assertion;
    // Grant::identity_assertion: the identity provider's token endpoint, the client's credentials
    // there, and the user's ID token (asked for before each exchange).
    struct IdentityProvider {
        std::string token_endpoint;
        std::string client_id;
        std::string client_secret;
        std::function<std::string()> id_token;
    };
    std::optional<IdentityProvider> identity_provider;

    // A Client ID Metadata Document's URL (https), used as the client_id with authorization
    // servers that say client_id_metadata_document_supported; else registration is dynamic.
    std::string client_metadata_url;
    // Dynamic Client Registration (RFC 7591): the client's name and application_type.
    std::string client_name = "mcp-cpp";
    std::string application_type = "native";

    // DPoP (RFC 9449): when the resource server offers it (a DPoP challenge, or
    // dpop_bound_access_tokens_required in its metadata) and the authorization server lists ES256
    // in dpop_signing_alg_values_supported, tokens are bound to a key of the transport's (made when
    // it starts, never stored) and every request carries a proof; the servers' nonces are used.
    bool dpop = true;

    // Replaces the scopes of the challenge and of the resource's metadata when not empty.
    std::vector<std::string> scopes;

    // Where the browser is sent back. Empty: a listener on 127.0.0.1, on a port of the system's
    // choosing (RFC 8252 §7.3), that takes one redirect carrying the right `state`.
    std::string redirect_uri;
    // Shows the user the URL to open. Default: prints it to stderr.
    std::function<void(const AuthorizationPrompt&)> open_url;
    // Waits for the browser's redirect and returns its whole URL (code, state, iss). Needed when
    // redirect_uri is set; the default listener's otherwise. fetch_authorization_redirect below
    // serves authorization servers that grant at once (tests, pre-approved clients).
    std::function<std::string(const AuthorizationPrompt&)> wait_for_redirect;
    // How long the default listener waits for the browser.
    std::chrono::milliseconds redirect_timeout{300'000};

    // Where registrations and tokens are kept. Default: a MemoryTokenStore of the transport's.
    std::shared_ptr<TokenStore> store;
    // Called after each token issued (on the authorization thread; must not block).
    std::function<void(const TokenEvent&)> on_token;

    // Discovery and token requests: HTTPS only, but for loopback hosts; each document at most
    // max_document_bytes, each request at most request_timeout.
    std::size_t max_document_bytes = 256 * 1024;
    std::chrono::milliseconds request_timeout{15'000};
    // How many times one request may send the user to authorize (401, then 403 step-ups).
    int max_authorizations_per_request = 3;
};

// Plays a browser against an authorization server that grants at once: GETs `url`, follows its
// redirects (keeping cookies, at most 20) until one leads to `redirect_uri`, and returns that
// URL. Throws std::runtime_error when the server stops elsewhere.
std::string fetch_authorization_redirect(const std::string& url, const std::string& redirect_uri,
                                         const net::HttpClientOptions& http = {});

}  // namespace mcp
