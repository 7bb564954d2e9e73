#pragma once
// Validates a JWT access token (RFC 9068, RFC 7519) against the issuer's keys and this server's
// rules: the signature under a key the algorithm may use, the issuer, the audience (RFC 8707: the
// token must name this resource), and its validity period.
#include "jose/jwk.hpp"
#include "jose/jws.hpp"

#include <mcp/server/request_context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp::detail {

struct TokenRules {
    std::string issuer;
    std::vector<std::string> audiences;  // the token's aud must name one of them
    std::chrono::seconds leeway{60};     // allowed clock skew on exp, nbf and iat
};

// A token that is not valid, with the RFC 6750 error code and a description for the client.
// Descriptions never quote the token.
struct TokenRefusal {
    std::string error = "invalid_token";
    std::string description;
};

struct AcceptedToken {
    std::shared_ptr<const Principal> principal;
    std::chrono::system_clock::time_point expires;
};

// The token names a key id the key set lacks: the keys may have rotated.
struct UnknownKey {};

using TokenVerdict = std::variant<AcceptedToken, TokenRefusal, UnknownKey>;

TokenVerdict validate_jwt(const CompactJws& token, const std::vector<VerificationKey>& keys, const TokenRules& rules,
                          std::chrono::system_clock::time_point now);

// The scopes a token or an introspection answer grants: "scope" (space-separated, RFC 8693 and
// RFC 7662) or, failing that, "scp" (Microsoft Entra ID issues it space-separated, others as an
// array); either may be a string or an array of strings.
std::vector<std::string> scopes_of(const boost::json::object& claims);

// Whether `aud` (a string or an array of strings) names one of `audiences`.
bool audience_matches(const boost::json::value* aud, const std::vector<std::string>& audiences);

// A NumericDate claim (exp, nbf, iat: seconds since the epoch); nullopt when it is missing, not a
// number, or outside 0 .. 1e11 (the year 5138), where it can only be nonsense or an overflow.
std::optional<std::chrono::system_clock::time_point> numeric_date(const boost::json::object& claims,
                                                                  std::string_view name);

}  // namespace mcp::detail
