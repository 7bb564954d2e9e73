#pragma once
// The OAuth client of one HTTP transport (mcp/client/oauth.hpp): it holds the token for the
// transport's resource and renews it when the server refuses a request. Discovery, registration
// and the grants run on a thread of its own, one renewal at a time (so any number of requests
// refused at once cost one renewal), with blocking calls on a private io_context; the transport's
// coroutines await them without holding the I/O thread.
#include "client/auth/documents.hpp"
#include "jose/jwk.hpp"
#include "net/http_client.hpp"

#include <mcp/client/oauth.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/json/object.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

class Authorizer : public std::enable_shared_from_this<Authorizer> {
public:
    // `resource_url`: the MCP endpoint. Throws std::invalid_argument for options it cannot use.
    Authorizer(OAuthOptions options, std::string resource_url, net::HttpClientOptions http);
    ~Authorizer();
    Authorizer(const Authorizer&) = delete;
    Authorizer& operator=(const Authorizer&) = delete;

    // Whether a request to `url` may carry the token: the resource's origin only.
    bool covers(std::string_view url) const;
    // The token to send now (empty: none yet). Any thread.
    std::string token() const;
    // Adds the token (and for a DPoP-bound one a fresh proof for the request's method and URL) to
    // a request for the resource; returns the token added (empty: none yet). Any thread.
    std::string present(net::HttpRequest& request) const;
    // A resource server's DPoP-Nonce (RFC 9449 §9), kept for the next proofs; true when the
    // answer was a use_dpop_nonce challenge to send the request again for. Any thread.
    bool take_nonce(unsigned status, const net::HttpHeaders& headers);

    struct Outcome {
        bool ok = false;
        std::string error;  // when not ok: why, without any secret
    };
    // After a 401 (or a 403 insufficient_scope) to a request that carried `sent` (maybe empty):
    // a token to send it again with, unless another renewal already brought one.
    boost::asio::awaitable<Outcome> renew(unsigned status, std::vector<std::string> www_authenticate, std::string sent);
    // The same, blocking (the authorization thread's; tests).
    Outcome renew_now(unsigned status, const std::vector<std::string>& www_authenticate, const std::string& sent);
    // Ends what runs and refuses what comes (the transport closes).
    void cancel();

private:
    struct Discovered {
        std::optional<ResourceMetadata> resource;  // none: a 2025-03-26 server
        std::string issuer;
        std::optional<ServerMetadata> server;  // none: the 2025-03-26 default endpoints
        std::string authorization_endpoint;
        std::string token_endpoint;
        std::string registration_endpoint;
        bool resource_offers_dpop = false;  // a DPoP challenge, or dpop_bound_access_tokens_required
    };

    Outcome renew_locked(unsigned status, const std::vector<std::string>& www_authenticate);
    Discovered discover(const std::string& resource_metadata_url);
    std::optional<ResourceMetadata> fetch_resource_metadata(const std::string& hinted);
    // `known_issuer`: the issuer came from the resource's metadata, and the document must name it.
    std::optional<ServerMetadata> fetch_server_metadata(const std::string& issuer, bool known_issuer);
    void register_client(const Discovered& d);
    std::vector<std::string> choose_scopes(const Discovered& d, const std::string& challenged, bool step_up) const;
    std::string choose_auth_method(const ServerMetadata* server) const;
    bool refresh(const Discovered& d);
    void authorization_code(const Discovered& d, const std::vector<std::string>& scopes);
    // client_credentials, jwt_bearer and identity_assertion: no user, pre-registered credentials.
    void machine_grant(const Discovered& d, const std::vector<std::string>& scopes);
    std::string identity_assertion_grant(const Discovered& d, const std::string& scope);
    void request_token(const Discovered& d, const std::vector<std::pair<std::string, std::string>>& form,
                       const std::string& grant_type, const std::string& scope);
    void add_client_authentication(const Discovered& d, net::HttpRequest& request,
                                   std::vector<std::pair<std::string, std::string>>& form) const;
    bool dpop_with(const Discovered& d) const;
    // A DPoP proof (RFC 9449 §4.2) for `method` on `url`; `token` sets ath.
    std::string dpop_proof(std::string_view method, std::string_view url, const std::string& token,
                           const std::string& nonce) const;

    // Blocking HTTP on the authorization thread's context, bounded by the options.
    net::HttpResponse exchange(net::HttpRequest request);
    void check_url(const std::string& url, const char* what) const;
    void save();
    void set_token(StoredAuthorization next);

    OAuthOptions options_;
    const std::string resource_url_;
    std::string resource_origin_;  // as the connection pool names it: for covers()
    std::string resource_base_;    // scheme://authority as written: what well-known URLs are made from
    std::string resource_path_;
    net::HttpClientOptions http_options_;

    mutable std::mutex mutex_;   // state_.access_token, for token() from any thread
    StoredAuthorization state_;  // the authorization thread's (the token also under mutex_)
    std::string step_up_scope_;  // the scopes of the last authorization, for the union of a step-up
    std::map<std::string, ServerMetadata> metadata_cache_;  // by issuer
    std::stop_source stop_;
    // DPoP: the key of this authorizer's life, its public JWK, the servers' latest nonces.
    std::shared_ptr<EVP_PKEY> dpop_key_;
    boost::json::object dpop_jwk_;
    std::string as_nonce_;  // the authorization thread's
    std::string rs_nonce_;  // under mutex_

    boost::asio::io_context io_;  // the authorization thread's
    std::unique_ptr<net::HttpClient> http_;
    boost::asio::thread_pool pool_{1};
};

// The default redirect listener (RFC 8252 §7.3): bound to 127.0.0.1 on an ephemeral port; wait()
// takes the first GET of `path` carrying `state`, answers the browser, and returns its URL.
class LoopbackRedirect {
public:
    LoopbackRedirect(boost::asio::io_context& io, std::string path = "/callback");
    ~LoopbackRedirect();
    std::string redirect_uri() const;
    // Throws std::runtime_error on timeout, on stop, or for an error redirect.
    std::string wait(const std::string& state, std::chrono::milliseconds timeout, std::stop_token stop);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The query parameters of a URL (a redirect), decoded; the first of each name.
std::map<std::string, std::string> query_parameters(std::string_view url);
// application/x-www-form-urlencoded.
std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields);
// PKCE (RFC 7636 §4.2): BASE64URL(SHA256(verifier)).
std::string pkce_challenge(std::string_view verifier);

}  // namespace mcp::detail
