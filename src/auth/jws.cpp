#include "auth/jws.hpp"

#include "auth/openssl_handles.hpp"
#include "util/base64.hpp"

#include <openssl/ecdsa.h>
#include <openssl/rsa.h>

#include <boost/json/parse.hpp>

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

}  // namespace mcp::detail
