#include "jose/jws.hpp"

#include "jose/openssl_handles.hpp"
#include "util/base64.hpp"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>

#include <array>

namespace mcp::detail {

namespace {

std::optional<boost::json::object> decode_object(std::string_view part) {
    auto bytes = base64url_decode(part);
    if (!bytes) return std::nullopt;
    boost::system::error_code ec;
    boost::json::parse_options options;
    options.max_depth = 16;  // headers and claims are flat; deep nesting is hostile
    auto value = boost::json::parse(*bytes, ec, {}, options);
    if (ec || !value.is_object()) return std::nullopt;
    return std::move(value.get_object());
}

struct Algorithm {
    std::string_view name;
    KeyType key;
    const EVP_MD* (*digest)();  // nullptr: EdDSA hashes internally
    bool pss = false;
    std::size_t ecdsa_part_bytes = 0;  // r and s each, for ECDSA
};

const Algorithm* find_algorithm(std::string_view name) {
    static const std::array<Algorithm, 7> algorithms{{
        {"RS256", KeyType::rsa, EVP_sha256},
        {"RS384", KeyType::rsa, EVP_sha384},
        {"RS512", KeyType::rsa, EVP_sha512},
        {"PS256", KeyType::rsa, EVP_sha256, true},
        {"ES256", KeyType::ec_p256, EVP_sha256, false, 32},
        {"ES384", KeyType::ec_p384, EVP_sha384, false, 48},
        {"EdDSA", KeyType::ed25519, nullptr},
    }};
    for (const auto& a : algorithms) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

// JWS carries r||s; OpenSSL verifies the DER encoding of ECDSA-Sig-Value.
std::optional<std::string> ecdsa_der(std::string_view raw, std::size_t part_bytes) {
    if (raw.size() != 2 * part_bytes) return std::nullopt;
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw.data());
    OpensslHandle<ECDSA_SIG, ECDSA_SIG_free> sig(ECDSA_SIG_new());
    BIGNUM* r = BN_bin2bn(bytes, static_cast<int>(part_bytes), nullptr);
    BIGNUM* s = BN_bin2bn(bytes + part_bytes, static_cast<int>(part_bytes), nullptr);
    if (!sig || r == nullptr || s == nullptr || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
        BN_free(r);
        BN_free(s);
        return std::nullopt;
    }
    const int size = i2d_ECDSA_SIG(sig.get(), nullptr);
    if (size <= 0) return std::nullopt;
    std::string der(static_cast<std::size_t>(size), '\0');
    auto* out = reinterpret_cast<unsigned char*>(der.data());
    i2d_ECDSA_SIG(sig.get(), &out);
    return der;
}

// OpenSSL signs ECDSA as DER; JWS wants r||s, each left-padded to the curve's size.
std::optional<std::string> ecdsa_raw(std::string_view der, std::size_t part_bytes) {
    const auto* in = reinterpret_cast<const unsigned char*>(der.data());
    OpensslHandle<ECDSA_SIG, ECDSA_SIG_free> sig(d2i_ECDSA_SIG(nullptr, &in, static_cast<long>(der.size())));
    if (!sig) return std::nullopt;
    const BIGNUM* r = nullptr;
    const BIGNUM* s = nullptr;
    ECDSA_SIG_get0(sig.get(), &r, &s);
    std::string out(2 * part_bytes, '\0');
    auto* bytes = reinterpret_cast<unsigned char*>(out.data());
    if (BN_bn2binpad(r, bytes, static_cast<int>(part_bytes)) < 0 ||
        BN_bn2binpad(s, bytes + part_bytes, static_cast<int>(part_bytes)) < 0)
        return std::nullopt;
    return out;
}

}  // namespace

std::optional<CompactJws> parse_compact_jws(std::string_view token) {
    const auto first = token.find('.');
    const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
    if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return std::nullopt;
    auto header = decode_object(token.substr(0, first));
    auto payload = header ? decode_object(token.substr(first + 1, second - first - 1)) : std::nullopt;
    auto signature = payload ? base64url_decode(token.substr(second + 1)) : std::nullopt;
    if (!signature) return std::nullopt;
    return CompactJws{std::move(*header), std::move(*payload), token.substr(0, second), std::move(*signature)};
}

std::optional<KeyType> key_type_for(std::string_view alg) {
    const auto* a = find_algorithm(alg);
    return a ? std::optional<KeyType>(a->key) : std::nullopt;
}

bool verify_signature(std::string_view alg, EVP_PKEY* key, std::string_view signing_input, std::string_view signature) {
    const auto* a = find_algorithm(alg);
    if (a == nullptr || key == nullptr) return false;
    std::string der;
    if (a->ecdsa_part_bytes != 0) {
        auto converted = ecdsa_der(signature, a->ecdsa_part_bytes);
        if (!converted) return false;
        der = std::move(*converted);
        signature = der;
    }
    DigestContext ctx(EVP_MD_CTX_new());
    EVP_PKEY_CTX* pkey_ctx = nullptr;  // owned by ctx
    if (!ctx || EVP_DigestVerifyInit(ctx.get(), &pkey_ctx, a->digest ? a->digest() : nullptr, nullptr, key) != 1) {
        return false;
    }
    if (a->pss && (EVP_PKEY_CTX_set_rsa_padding(pkey_ctx, RSA_PKCS1_PSS_PADDING) != 1 ||
                   EVP_PKEY_CTX_set_rsa_pss_saltlen(pkey_ctx, RSA_PSS_SALTLEN_DIGEST) != 1 ||
                   EVP_PKEY_CTX_set_rsa_mgf1_md(pkey_ctx, a->digest()) != 1)) {
        return false;
    }
    return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                            reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size()) == 1;
}

Pkey load_private_key_pem(std::string_view pem) {
    OpensslHandle<BIO, BIO_free_all> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    if (!bio) return nullptr;
    return Pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

std::optional<KeyType> key_type_of(EVP_PKEY* key) {
    if (key == nullptr) return std::nullopt;
    if (EVP_PKEY_is_a(key, "RSA")) return KeyType::rsa;
    if (EVP_PKEY_is_a(key, "ED25519")) return KeyType::ed25519;
    if (EVP_PKEY_is_a(key, "EC")) {
        char group[64] = {};
        std::size_t length = 0;
        if (EVP_PKEY_get_utf8_string_param(key, "group", group, sizeof(group), &length) != 1) return std::nullopt;
        const std::string_view name(group, length);
        if (name == "prime256v1" || name == "P-256") return KeyType::ec_p256;
        if (name == "secp384r1" || name == "P-384") return KeyType::ec_p384;
    }
    return std::nullopt;
}

Pkey generate_ec_p256_key() {
    Pkey key(EVP_EC_gen("P-256"));
    if (!key) throw std::runtime_error("OpenSSL could not generate a P-256 key");
    return key;
}

boost::json::object public_jwk(EVP_PKEY* key) {
    const auto type = key_type_of(key);
    if (!type) throw std::invalid_argument("no JWK for this key type");
    const auto bn_param = [&](const char* name) {
        BIGNUM* raw = nullptr;
        if (EVP_PKEY_get_bn_param(key, name, &raw) != 1) throw std::runtime_error("OpenSSL could not read a key");
        Bignum bn(raw);
        std::string bytes(static_cast<std::size_t>(BN_num_bytes(bn.get())), '\0');
        BN_bn2bin(bn.get(), reinterpret_cast<unsigned char*>(bytes.data()));
        return base64url_encode(as_bytes(bytes));
    };
    if (*type == KeyType::rsa) return {{"kty", "RSA"}, {"n", bn_param("n")}, {"e", bn_param("e")}};
    unsigned char point[1 + 2 * 66];
    std::size_t length = sizeof(point);
    if (*type == KeyType::ed25519) {
        if (EVP_PKEY_get_raw_public_key(key, point, &length) != 1)
            throw std::runtime_error("OpenSSL could not read a public key");
        return {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", base64url_encode({point, length})}};
    }
    if (EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", point, sizeof(point), &length) != 1)
        throw std::runtime_error("OpenSSL could not read a public key");
    const std::size_t size = *type == KeyType::ec_p256 ? 32 : 48;
    if (length != 1 + 2 * size || point[0] != 0x04) throw std::runtime_error("an EC public key not uncompressed");
    return {{"kty", "EC"},
            {"crv", *type == KeyType::ec_p256 ? "P-256" : "P-384"},
            {"x", base64url_encode({point + 1, size})},
            {"y", base64url_encode({point + 1 + size, size})}};
}

std::string sign_compact_jws(std::string_view alg, EVP_PKEY* key, boost::json::object header,
                             const boost::json::object& payload) {
    const auto* a = find_algorithm(alg);
    if (a == nullptr) throw std::invalid_argument("not a signing algorithm accepted: " + std::string(alg));
    if (key_type_of(key) != a->key)
        throw std::invalid_argument("the key is not of the type " + std::string(alg) + " needs");
    header["alg"] = std::string(alg);
    const auto header_text = boost::json::serialize(header);
    const auto payload_text = boost::json::serialize(payload);
    const auto signing_input = base64url_encode(as_bytes(header_text)) + "." + base64url_encode(as_bytes(payload_text));
    DigestContext ctx(EVP_MD_CTX_new());
    EVP_PKEY_CTX* pkey_ctx = nullptr;  // owned by ctx
    if (!ctx || EVP_DigestSignInit(ctx.get(), &pkey_ctx, a->digest ? a->digest() : nullptr, nullptr, key) != 1)
        throw std::runtime_error("OpenSSL could not start a signature");
    if (a->pss && (EVP_PKEY_CTX_set_rsa_padding(pkey_ctx, RSA_PKCS1_PSS_PADDING) != 1 ||
                   EVP_PKEY_CTX_set_rsa_pss_saltlen(pkey_ctx, RSA_PSS_SALTLEN_DIGEST) != 1 ||
                   EVP_PKEY_CTX_set_rsa_mgf1_md(pkey_ctx, a->digest()) != 1))
        throw std::runtime_error("OpenSSL could not set RSA-PSS padding");
    std::size_t size = 0;
    const auto* input = reinterpret_cast<const unsigned char*>(signing_input.data());
    if (EVP_DigestSign(ctx.get(), nullptr, &size, input, signing_input.size()) != 1)
        throw std::runtime_error("OpenSSL could not size a signature");
    std::string signature(size, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, input,
                       signing_input.size()) != 1)
        throw std::runtime_error("OpenSSL could not sign");
    signature.resize(size);
    if (a->ecdsa_part_bytes != 0) {
        auto raw = ecdsa_raw(signature, a->ecdsa_part_bytes);
        if (!raw) throw std::runtime_error("OpenSSL made an ECDSA signature that does not decode");
        signature = std::move(*raw);
    }
    return signing_input + "." + base64url_encode(as_bytes(signature));
}

}  // namespace mcp::detail
