#pragma once
// What an RFC 7662 introspection answer means for a bearer token: active, issued by the expected
// server for this resource, and within its validity period. The answer comes from the network:
// every member may be missing or of the wrong type, and none of that may throw.
#include "auth/jwt_validator.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <variant>

namespace mcp::detail {

// How long an accepted token whose answer names no exp is remembered.
inline constexpr std::chrono::seconds kIntrospectionTtlWithoutExp{60};

using IntrospectionVerdict = std::variant<AcceptedToken, TokenRefusal>;

// `rules.issuer` empty: any iss. An accepted token is remembered until its exp, so a token revoked
// before then stays accepted where it is remembered (TokenCache bounds the entries, not their age).
IntrospectionVerdict introspection_verdict(const boost::json::object& answer, const TokenRules& rules,
                                           std::chrono::system_clock::time_point now);

}  // namespace mcp::detail
