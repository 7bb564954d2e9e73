#include "jose/jwk.hpp"

#include "jose/openssl_handles.hpp"
#include "util/base64.hpp"

#include <openssl/core_names.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace mcp::detail {

void PkeyDeleter::operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }

namespace {

constexpr int kMinRsaBits = 2048;
// Every token is checked on an I/O thread, against each key its kid names (or, without a kid, every
// key of its type): the keys' size and number bound what one token can cost. Issuers publish a
// few keys of 2048 to 4096 bits.
constexpr std::size_t kMaxRsaModulusBytes = 8192 / 8;
constexpr std::size_t kMaxKeys = 32;
// Reading a key costs a public-key check: a set padded with keys to skip is not read to its end.
constexpr std::size_t kMaxEntriesRead = 100;

std::optional<std::string> member_bytes(const boost::json::object& jwk, std::string_view name) {
    const auto* v = jwk.if_contains(name);
    if (v == nullptr || !v->is_string()) return std::nullopt;
    return base64url_decode(v->get_string());
}

std::string_view member_string(const boost::json::object& jwk, std::string_view name) {
    const auto* v = jwk.if_contains(name);
    return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

Pkey from_params(const char* type, const ParamBuilder& builder) {
    Params params(OSSL_PARAM_BLD_to_param(builder.get()));
    PkeyContext ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
    EVP_PKEY* raw = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
        EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) <= 0) {
        return nullptr;
    }
    Pkey key(raw);
    // fromdata takes what it is given: a point off the curve must be refused here.
    PkeyContext check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
    if (!check || EVP_PKEY_public_check(check.get()) != 1) return nullptr;
    return key;
}

Pkey rsa_key(const boost::json::object& jwk) {
    const auto n = member_bytes(jwk, "n");
    const auto e = member_bytes(jwk, "e");
    if (!n || !e || n->empty() || n->size() > kMaxRsaModulusBytes || e->empty() || e->size() > 8) return nullptr;
    Bignum bn_n(BN_bin2bn(reinterpret_cast<const unsigned char*>(n->data()), static_cast<int>(n->size()), nullptr));
    Bignum bn_e(BN_bin2bn(reinterpret_cast<const unsigned char*>(e->data()), static_cast<int>(e->size()), nullptr));
    ParamBuilder builder(OSSL_PARAM_BLD_new());
    if (!bn_n || !bn_e || !builder || !OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) ||
        !OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get())) {
        return nullptr;
    }
    auto key = from_params("RSA", builder);
    if (!key || EVP_PKEY_get_bits(key.get()) < kMinRsaBits) return nullptr;
    return key;
}

Pkey ec_key(const boost::json::object& jwk, const char* group, std::size_t coordinate_bytes) {
    const auto x = member_bytes(jwk, "x");
    const auto y = member_bytes(jwk, "y");
    if (!x || !y || x->size() != coordinate_bytes || y->size() != coordinate_bytes) return nullptr;
    const std::string point = '\x04' + *x + *y;  // uncompressed SEC 1 point
    ParamBuilder builder(OSSL_PARAM_BLD_new());
    if (!builder || !OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, 0) ||
        !OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size())) {
        return nullptr;
    }
    return from_params("EC", builder);
}

Pkey ed25519_key(const boost::json::object& jwk) {
    const auto x = member_bytes(jwk, "x");
    if (!x || x->size() != 32) return nullptr;
    return Pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                            reinterpret_cast<const unsigned char*>(x->data()), x->size()));
}

// Only keys meant for verifying signatures.
bool for_signatures(const boost::json::object& jwk) {
    const auto use = member_string(jwk, "use");
    if (!use.empty() && use != "sig") return false;
    const auto* ops = jwk.if_contains("key_ops");
    if (ops == nullptr) return true;
    const auto* list = ops->if_array();
    return list != nullptr && std::any_of(list->begin(), list->end(), [](const boost::json::value& op) {
               return op.is_string() && op.get_string() == "verify";
           });
}

std::optional<VerificationKey> parse_key(const boost::json::object& jwk) {
    if (!for_signatures(jwk) || jwk.contains("d")) return std::nullopt;  // "d": a private key, published by mistake
    const auto kty = member_string(jwk, "kty");
    const auto crv = member_string(jwk, "crv");
    VerificationKey out;
    Pkey key;
    if (kty == "RSA") {
        out.type = KeyType::rsa;
        key = rsa_key(jwk);
    } else if (kty == "EC" && crv == "P-256") {
        out.type = KeyType::ec_p256;
        key = ec_key(jwk, "P-256", 32);
    } else if (kty == "EC" && crv == "P-384") {
        out.type = KeyType::ec_p384;
        key = ec_key(jwk, "P-384", 48);
    } else if (kty == "OKP" && crv == "Ed25519") {
        out.type = KeyType::ed25519;
        key = ed25519_key(jwk);
    }
    if (!key) return std::nullopt;
    out.kid = std::string(member_string(jwk, "kid"));
    out.alg = std::string(member_string(jwk, "alg"));
    out.key = std::shared_ptr<EVP_PKEY>(key.release(), PkeyDeleter{});
    return out;
}

}  // namespace

std::vector<VerificationKey> parse_jwks(const boost::json::value& document) {
    const auto* object = document.if_object();
    const auto* keys = object ? object->if_contains("keys") : nullptr;
    if (keys == nullptr || !keys->is_array()) throw std::invalid_argument("not a JWKS: no \"keys\" array");
    std::vector<VerificationKey> out;
    const auto& entries = keys->get_array();
    for (std::size_t i = 0; i < entries.size() && i < kMaxEntriesRead && out.size() < kMaxKeys; ++i) {
        if (const auto* o = entries[i].if_object()) {
            if (auto key = parse_key(*o)) out.push_back(std::move(*key));
        }
    }
    return out;
}

}  // namespace mcp::detail
