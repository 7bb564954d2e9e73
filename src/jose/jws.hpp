#pragma once
// JWS compact serialization (RFC 7515 §7.1): signature verification for the asymmetric
// algorithms an authorization server signs access tokens with, and signing with a private key for
// what a client signs (private_key_jwt assertions, RFC 7523). HMAC ("HS256"…) and "none" are never
// accepted: a resource server holds no shared secret, and a public key must not double as one.
#include "jose/jwk.hpp"

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

// A private key from PEM (PKCS#8, or a traditional RSA or EC key); null when it does not parse.
Pkey load_private_key_pem(std::string_view pem);
// The key type of a private key; nullopt for one no algorithm here signs with.
std::optional<KeyType> key_type_of(EVP_PKEY* key);
// A fresh P-256 key pair (a DPoP proof key, RFC 9449), and a key's public JWK (RFC 7517; EC P-256
// and P-384, Ed25519, RSA), never its private part.
Pkey generate_ec_p256_key();
boost::json::object public_jwk(EVP_PKEY* key);

// `payload` signed by `key` with `alg` as a compact JWS whose header is `header` plus "alg".
// ECDSA signatures are the raw r||s of JWS. Throws std::invalid_argument for an algorithm not
// accepted or a key not of its type, std::runtime_error when OpenSSL fails.
std::string sign_compact_jws(std::string_view alg, EVP_PKEY* key, boost::json::object header,
                             const boost::json::object& payload);

}  // namespace mcp::detail
