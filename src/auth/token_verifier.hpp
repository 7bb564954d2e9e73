#pragma once
// Bearer token validation for the HTTP transport: JWT access tokens checked against the issuer's
// keys, opaque ones by introspection (RFC 7662). The network steps (discovery, JWKS, introspection)
// run on a thread of the verifier's own; an I/O thread only waits for them as a coroutine, so a
// slow or failing authorization server never blocks one. Accepted tokens are remembered until
// they expire, by their SHA-256, never in clear.
#include "auth/jwt_validator.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp::detail {

struct VerifierSettings {
    std::string issuer;             // discovered from, and required as iss
    std::string jwks_uri;           // skips discovery when set
    std::string introspection_url;  // opaque tokens go here when set (or discovered, with credentials)
    std::string client_id;          // for introspection, HTTP Basic (RFC 7662 §2.1)
    std::string client_secret;
    std::vector<std::string> audiences;
    std::chrono::seconds leeway{60};
    std::string ca_file;
    std::chrono::milliseconds fetch_timeout{5000};
    // An unknown kid fetches the JWKS again at most this often.
    std::chrono::milliseconds jwks_refetch_interval{10'000};
    std::size_t cache_entries = 10'000;  // accepted tokens remembered
    // Introspection requests in flight at once; beyond, a token is answered 503.
    std::size_t max_introspections = 64;
};

// The authorization server could not be asked (down, slow, answering nonsense): the request is
// answered 503, not 401, and the client tries again.
struct VerifierUnavailable {
    std::string reason;
};

using BearerVerdict = std::variant<AcceptedToken, TokenRefusal, VerifierUnavailable>;

// One request a verification made to the authorization server (its metadata, its keys, an
// introspection), for the caller's trace: what was asked, what came back, when.
struct FetchRecord {
    std::string what;  // "metadata", "jwks", "introspection"
    std::string method;
    std::string url;
    unsigned status = 0;  // 0: no response
    std::string failure;  // empty: the document was taken
    std::chrono::system_clock::time_point start;
    std::chrono::system_clock::time_point end;
};
using FetchRecords = std::vector<FetchRecord>;

// How long a key set is kept, from its response's Cache-Control: its max-age, within 60 s and 24 h;
// 60 s when it says no-store or no-cache (the keys are still needed: refetched each minute); an
// hour when it names no max-age.
std::chrono::seconds keys_max_age(std::string_view cache_control);

class TokenVerifier {
public:
    static constexpr std::size_t max_token_bytes = 16 * 1024;

    // Throws std::invalid_argument for unusable settings (no issuer, a bad URL, a bad CA file).
    explicit TokenVerifier(VerifierSettings settings);
    ~TokenVerifier();
    TokenVerifier(const TokenVerifier&) = delete;
    TokenVerifier& operator=(const TokenVerifier&) = delete;

    // Starts discovery and the first JWKS fetch in the background.
    void start();
    // Checks a bearer token; awaited on the caller's executor. `fetches`, when given, gets the
    // requests this check made (not those of a refresh another check started, which it waits for).
    // Shared: the verifier's thread may still write it after the caller is gone (shutdown).
    boost::asio::awaitable<BearerVerdict> verify(std::string token, std::shared_ptr<FetchRecords> fetches = nullptr);
    // The keys are loaded (or only introspection is used): readiness.
    bool ready() const;

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp::detail
