#pragma once
// The endpoint as an OAuth 2.1 resource server (RFC 9728, RFC 6750): its protected resource
// metadata, the bearer check of each request, and the WWW-Authenticate challenges that send a
// client to the authorization server, or back to it for more scopes.
#include "auth/token_verifier.hpp"

#include <mcp/transport/http.hpp>

#include <boost/asio/awaitable.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp {
class Server;
}

namespace mcp::detail {

class BearerAuth {
public:
    // `resource`: the endpoint's canonical URI. Throws std::invalid_argument for unusable
    // options (an unreadable credentials file, a bad URL).
    BearerAuth(const AuthOptions& options, std::string resource);

    // Starts fetching the authorization server's metadata and keys.
    void start() { verifier_.start(); }
    bool ready() const { return verifier_.ready(); }

    const std::string& resource() const { return resource_; }
    // The two well-known locations of the metadata: with the endpoint's path inserted, and bare.
    bool is_metadata_path(std::string_view path) const;
    std::string metadata_document(const Server& server) const;

    // The Authorization header's verdict; a missing or non-Bearer header is a TokenRefusal with
    // an empty error (no token was presented). `fetches`: as TokenVerifier::verify's.
    boost::asio::awaitable<BearerVerdict> check(std::string_view authorization, std::shared_ptr<FetchRecords> fetches);
    // Whether the principal holds the scopes every request needs (--auth-scopes).
    bool grants_required_scopes(const Principal& principal) const;

    // 401: `refusal` null or with an empty error when no token came; RFC 6750 §3.
    std::string unauthorized_challenge(const TokenRefusal& refusal) const;
    // 403: the token lacks scopes; `needed` are the call's, joined with --auth-scopes.
    std::string insufficient_scope_challenge(const std::vector<std::string>& needed,
                                             std::string_view description) const;

private:
    std::string challenge(std::string_view error, std::string_view description,
                          const std::vector<std::string>& scopes) const;

    std::string resource_;
    std::string metadata_url_;
    std::string metadata_path_;  // /.well-known/oauth-protected-resource + the endpoint's path
    std::vector<std::string> authorization_servers_;
    std::vector<std::string> scopes_;
    std::string resource_name_;
    std::string resource_documentation_;
    TokenVerifier verifier_;
};

}  // namespace mcp::detail
