#pragma once
// JWS compact serialization (RFC 7515 §7.1) and signature verification for the asymmetric
// algorithms an authorization server signs access tokens with. HMAC ("HS256"…) and "none" are
// never accepted: a resource server holds no shared secret, and a public key must not double as
// one.
#include "auth/jwk.hpp"

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

struct CompactJws {
    boost::json::object header;
    boost::json::object payload;     // the JWT claims
    std::string_view signing_input;  // header.payload, as received (a view into the token)
    std::string signature;           // decoded bytes
};

// Splits and decodes a token; nullopt when it is not three base64url parts whose first two are
// JSON objects.
std::optional<CompactJws> parse_compact_jws(std::string_view token);

// The key type an algorithm verifies with; nullopt for an algorithm not accepted.
std::optional<KeyType> key_type_for(std::string_view alg);

// Whether `signature` over `signing_input` is valid under `key` for `alg`. The caller has
// checked that key_type_for(alg) is the key's type. ECDSA signatures are the raw r||s of JWS.
bool verify_signature(std::string_view alg, EVP_PKEY* key, std::string_view signing_input, std::string_view signature);

}  // namespace mcp::detail
