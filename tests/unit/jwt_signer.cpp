#include "jwt_signer.hpp"

#include <boost/json/serialize.hpp>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include <stdexcept>
#include <vector>

namespace testing_support {

namespace {

std::string bn_param(EVP_PKEY* key, const char* name) {
    BIGNUM* bn = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) throw std::runtime_error("no parameter");
    std::string out(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
    BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
    BN_free(bn);
    return out;
}

const EVP_MD* digest_of(std::string_view alg) {
    if (alg.ends_with("384")) return EVP_sha384();
    if (alg.ends_with("512")) return EVP_sha512();
    if (alg == "EdDSA") return nullptr;
    return EVP_sha256();
}

std::string sign_bytes(EVP_PKEY* key, std::string_view alg, std::string_view input) {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX* pctx = nullptr;
    if (EVP_DigestSignInit(ctx, &pctx, digest_of(alg), nullptr, key) != 1) throw std::runtime_error("sign init");
    if (alg.starts_with("PS")) {
        EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING);
        EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST);
    }
    std::size_t size = 0;
    const auto* data = reinterpret_cast<const unsigned char*>(input.data());
    EVP_DigestSign(ctx, nullptr, &size, data, input.size());
    std::string sig(size, '\0');
    if (EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &size, data, input.size()) != 1) {
        throw std::runtime_error("sign");
    }
    sig.resize(size);
    EVP_MD_CTX_free(ctx);
    if (!alg.starts_with("ES")) return sig;
    // DER ECDSA-Sig-Value to the raw r||s of JWS.
    const std::size_t part = alg == "ES384" ? 48 : 32;
    const auto* p = reinterpret_cast<const unsigned char*>(sig.data());
    ECDSA_SIG* ecdsa = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
    std::string raw(2 * part, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(ecdsa), reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(part));
    BN_bn2binpad(ECDSA_SIG_get0_s(ecdsa), reinterpret_cast<unsigned char*>(raw.data()) + part, static_cast<int>(part));
    ECDSA_SIG_free(ecdsa);
    return raw;
}

}  // namespace

std::string b64url(std::string_view bytes) {
    std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
    const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    std::string s(reinterpret_cast<char*>(out.data()), static_cast<std::size_t>(n));
    for (auto& c : s) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!s.empty() && s.back() == '=') s.pop_back();
    return s;
}

std::string unsigned_token(const boost::json::object& header, const boost::json::object& claims,
                           std::string_view signature) {
    return b64url(boost::json::serialize(header)) + "." + b64url(boost::json::serialize(claims)) + "." +
           b64url(signature);
}

TestKey TestKey::generate(std::string_view alg, int bits) {
    TestKey k;
    k.alg_ = std::string(alg);
    EVP_PKEY* key = nullptr;
    if (alg == "ES256") {
        key = EVP_EC_gen("P-256");
    } else if (alg == "ES384") {
        key = EVP_EC_gen("P-384");
    } else if (alg == "EdDSA") {
        key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
    } else {
        key = EVP_RSA_gen(static_cast<unsigned>(bits));
    }
    if (key == nullptr) throw std::runtime_error("keygen");
    k.key_ = std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
    return k;
}

boost::json::object TestKey::jwk(std::string_view kid, bool with_alg) const {
    boost::json::object o{{"kid", kid}, {"use", "sig"}};
    if (with_alg) o["alg"] = alg_;
    EVP_PKEY* key = key_.get();
    if (alg_ == "EdDSA") {
        unsigned char raw[32];
        std::size_t size = sizeof raw;
        EVP_PKEY_get_raw_public_key(key, raw, &size);
        o["kty"] = "OKP";
        o["crv"] = "Ed25519";
        o["x"] = b64url(std::string_view(reinterpret_cast<char*>(raw), size));
    } else if (alg_.starts_with("ES")) {
        unsigned char point[200];
        std::size_t size = 0;
        EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &size);
        const std::size_t part = (size - 1) / 2;
        o["kty"] = "EC";
        o["crv"] = alg_ == "ES384" ? "P-384" : "P-256";
        o["x"] = b64url(std::string_view(reinterpret_cast<char*>(point) + 1, part));
        o["y"] = b64url(std::string_view(reinterpret_cast<char*>(point) + 1 + part, part));
    } else {
        o["kty"] = "RSA";
        o["n"] = b64url(bn_param(key, OSSL_PKEY_PARAM_RSA_N));
        o["e"] = b64url(bn_param(key, OSSL_PKEY_PARAM_RSA_E));
    }
    return o;
}

std::string TestKey::sign(std::string_view alg, const boost::json::object& header_in,
                          const boost::json::object& claims) const {
    boost::json::object header = header_in;
    if (!header.contains("alg")) header["alg"] = alg;
    const std::string input = b64url(boost::json::serialize(header)) + "." + b64url(boost::json::serialize(claims));
    return input + "." + b64url(sign_bytes(key_.get(), alg, input));
}

std::string TestKey::sign_hs256_with_public_key(const boost::json::object& header_in,
                                                const boost::json::object& claims) const {
    boost::json::object header = header_in;
    header["alg"] = "HS256";
    const std::string secret = boost::json::serialize(jwk(header.contains("kid") ? header.at("kid").as_string() : ""));
    const std::string input = b64url(boost::json::serialize(header)) + "." + b64url(boost::json::serialize(claims));
    unsigned char mac[32];
    std::size_t size = 0;
    EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, secret.data(), secret.size(),
              reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, sizeof mac, &size);
    return input + "." + b64url(std::string_view(reinterpret_cast<char*>(mac), size));
}

}  // namespace testing_support
