#pragma once
// Test keys and tokens: what an authorization server does, done here with OpenSSL so that the
// verifier under test meets real signatures, and hostile ones.
#include <boost/json/object.hpp>

#include <memory>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace testing_support {

class TestKey {
public:
    // kty_alg: "RS256" (RSA 2048), "ES256", "ES384", "EdDSA"; `bits` for RSA.
    static TestKey generate(std::string_view alg, int bits = 2048);

    // The public JWK, with this kid (and "alg" when `with_alg`).
    boost::json::object jwk(std::string_view kid, bool with_alg = false) const;
    // header.payload.signature, signed with `alg` (which must suit the key; PS256 and RS384/512
    // with an RSA key).
    std::string sign(std::string_view alg, const boost::json::object& header, const boost::json::object& claims) const;
    // The same, as the public JWK's bytes used as an HMAC secret: the alg confusion attack.
    std::string sign_hs256_with_public_key(const boost::json::object& header, const boost::json::object& claims) const;

    EVP_PKEY* pkey() const { return key_.get(); }
    const std::string& alg() const { return alg_; }

private:
    std::shared_ptr<EVP_PKEY> key_;
    std::string alg_;
};

std::string b64url(std::string_view bytes);
// A token with the given parts: header and claims as JSON, the signature as given.
std::string unsigned_token(const boost::json::object& header, const boost::json::object& claims,
                           std::string_view signature = "");

}  // namespace testing_support
