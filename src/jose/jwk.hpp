#pragma once
// Public keys from a JSON Web Key Set (RFC 7517), as OpenSSL keys ready to verify signatures,
// each with the one JWS algorithm family it may be used with (RFC 7518 §3, RFC 8037).
#include <openssl/types.h>  // EVP_PKEY, without the whole EVP API
#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct PkeyDeleter {
    void operator()(EVP_PKEY* key) const;
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyDeleter>;

// The key types a signature algorithm needs.
enum class KeyType { rsa, ec_p256, ec_p384, ed25519 };

struct VerificationKey {
    std::string kid;  // may be empty
    std::string alg;  // the JWK's own "alg", empty when it names none
    KeyType type;
    std::shared_ptr<EVP_PKEY> key;
};

// The usable signing keys of a JWKS document. Keys that cannot verify signatures are skipped,
// not refused, so that one odd key does not take the others down: encryption keys ("use":"enc"
// or key_ops without "verify"), private or symmetric keys ("oct"), curves and types we do not
// verify with, RSA keys under 2048 or over 8192 bits, and malformed members. Of the first 100
// members, the first 32 usable keys are kept; the rest are ignored. Throws std::invalid_argument when the document is
// not a JWKS at all (no "keys" array).
std::vector<VerificationKey> parse_jwks(const boost::json::value& document);

}  // namespace mcp::detail
