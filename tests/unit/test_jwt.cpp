// JWT access tokens: every accepted algorithm with real signatures, and the tokens an attacker
// would try (alg none, HMAC with the public key, altered signatures, wrong issuer or audience,
// expired, from the future, malformed); JWKS parsing of odd and hostile keys.
#include "auth/introspection.hpp"
#include "auth/jwt_validator.hpp"
#include "auth/token_cache.hpp"
#include "jose/jwk.hpp"
#include "jose/jws.hpp"
#include "util/percent_encoding.hpp"

#include "jwt_signer.hpp"

#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <chrono>

namespace {

using namespace mcp::detail;
using testing_support::TestKey;
using Clock = std::chrono::system_clock;

constexpr std::string_view kIssuer = "https://as.example.com";
constexpr std::string_view kResource = "https://mcp.example.com/mcp";

long long epoch(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

boost::json::object claims(Clock::time_point now = Clock::now()) {
    return {{"iss", kIssuer},    {"aud", kResource},
            {"sub", "alice"},    {"scope", "notes:read notes:write"},
            {"iat", epoch(now)}, {"exp", epoch(now + std::chrono::minutes(5))}};
}

TokenRules rules() { return {std::string(kIssuer), {std::string(kResource)}, std::chrono::seconds(30)}; }

std::vector<VerificationKey> keys_of(std::initializer_list<boost::json::object> jwks) {
    boost::json::array keys;
    for (const auto& k : jwks) keys.push_back(k);
    return parse_jwks(boost::json::object{{"keys", std::move(keys)}});
}

TokenVerdict check(std::string_view token, const std::vector<VerificationKey>& keys,
                   Clock::time_point now = Clock::now()) {
    auto jws = parse_compact_jws(token);
    if (!jws) return TokenRefusal{"invalid_token", "unparsable"};
    return validate_jwt(*jws, keys, rules(), now);
}

std::string refusal_of(const TokenVerdict& verdict) {
    if (const auto* r = std::get_if<TokenRefusal>(&verdict)) return r->description;
    return std::holds_alternative<UnknownKey>(verdict) ? "unknown key" : "accepted";
}

struct AlgCase {
    const char* key_alg;
    const char* token_alg;
};

class EveryAlgorithm : public ::testing::TestWithParam<AlgCase> {};

TEST_P(EveryAlgorithm, AcceptsAGoodTokenAndRefusesItAltered) {
    const auto key = TestKey::generate(GetParam().key_alg);
    const auto keys = keys_of({key.jwk("k1")});
    const auto token = key.sign(GetParam().token_alg, {{"kid", "k1"}, {"typ", "at+jwt"}}, claims());
    const auto verdict = check(token, keys);
    ASSERT_TRUE(std::holds_alternative<AcceptedToken>(verdict)) << refusal_of(verdict);
    const auto& principal = *std::get<AcceptedToken>(verdict).principal;
    EXPECT_EQ(principal.subject, "alice");
    EXPECT_EQ(principal.scopes, (std::vector<std::string>{"notes:read", "notes:write"}));

    // One flipped byte anywhere in the signature.
    auto altered = token;
    const auto at = altered.rfind('.') + 3;
    altered[at] = altered[at] == 'A' ? 'B' : 'A';
    EXPECT_EQ(refusal_of(check(altered, keys)), "The token's signature is not valid");
}

INSTANTIATE_TEST_SUITE_P(Jwt, EveryAlgorithm,
                         ::testing::Values(AlgCase{"RS256", "RS256"}, AlgCase{"RS256", "RS384"},
                                           AlgCase{"RS256", "RS512"}, AlgCase{"RS256", "PS256"},
                                           AlgCase{"ES256", "ES256"}, AlgCase{"ES384", "ES384"},
                                           AlgCase{"EdDSA", "EdDSA"}));

TEST(Jwt, RefusesAlgNone) {
    const auto key = TestKey::generate("ES256");
    const auto token = testing_support::unsigned_token({{"alg", "none"}, {"kid", "k1"}}, claims());
    EXPECT_EQ(refusal_of(check(token, keys_of({key.jwk("k1")}))), "The token's signing algorithm is not accepted");
}

TEST(Jwt, RefusesHmacSignedWithThePublicKey) {
    const auto key = TestKey::generate("RS256");
    const auto token = key.sign_hs256_with_public_key({{"kid", "k1"}}, claims());
    EXPECT_EQ(refusal_of(check(token, keys_of({key.jwk("k1")}))), "The token's signing algorithm is not accepted");
}

TEST(Jwt, RefusesAnAlgorithmTheKeyDoesNotAllow) {
    const auto rsa = TestKey::generate("RS256");
    const auto ec = TestKey::generate("ES256");
    // An RSA signature presented as ES256 against the EC key: no EC key verifies it.
    auto token = rsa.sign("RS256", {{"kid", "k1"}, {"alg", "ES256"}}, claims());
    EXPECT_EQ(refusal_of(check(token, keys_of({ec.jwk("k1")}))), "The token's signature is not valid");
    // A JWK pinned to RS256 does not verify PS256.
    token = rsa.sign("PS256", {{"kid", "k1"}}, claims());
    EXPECT_EQ(refusal_of(check(token, keys_of({rsa.jwk("k1", true)}))), "The token's signature is not valid");
    // The same key without a pinned alg does.
    EXPECT_EQ(refusal_of(check(token, keys_of({rsa.jwk("k1", false)}))), "accepted");
}

TEST(Jwt, AnUnknownKidAsksForTheKeysAgain) {
    const auto key = TestKey::generate("ES256");
    const auto token = key.sign("ES256", {{"kid", "rotated"}}, claims());
    EXPECT_TRUE(std::holds_alternative<UnknownKey>(check(token, keys_of({key.jwk("k1")}))));
}

TEST(Jwt, WithoutAKidEveryKeyOfTheTypeIsTried) {
    const auto a = TestKey::generate("ES256");
    const auto b = TestKey::generate("ES256");
    const auto token = b.sign("ES256", {}, claims());
    EXPECT_EQ(refusal_of(check(token, keys_of({a.jwk("a"), b.jwk("b")}))), "accepted");
}

TEST(Jwt, ChecksIssuerAudienceAndTime) {
    const auto key = TestKey::generate("ES256");
    const auto keys = keys_of({key.jwk("k1")});
    const auto now = Clock::now();
    auto with = [&](std::string_view name, boost::json::value v) {
        auto c = claims(now);
        if (v.is_null())
            c.erase(name);
        else
            c[name] = std::move(v);
        return key.sign("ES256", {{"kid", "k1"}}, c);
    };
    EXPECT_EQ(refusal_of(check(with("iss", "https://evil.example.com"), keys)),
              "The token was issued by another authorization server");
    EXPECT_EQ(refusal_of(check(with("aud", "https://other.example.com/mcp"), keys)),
              "The token was issued for another resource");
    EXPECT_EQ(refusal_of(check(with("aud", nullptr), keys)), "The token was issued for another resource");
    EXPECT_EQ(refusal_of(check(with("aud", boost::json::array{"https://x.example", kResource}), keys)), "accepted");
    EXPECT_EQ(refusal_of(check(with("exp", epoch(now - std::chrono::minutes(2))), keys)), "The token expired");
    EXPECT_EQ(refusal_of(check(with("exp", epoch(now - std::chrono::seconds(10))), keys)), "accepted");  // leeway
    EXPECT_EQ(refusal_of(check(with("exp", nullptr), keys)), "The token has no valid expiry");
    EXPECT_EQ(refusal_of(check(with("exp", "tomorrow"), keys)), "The token has no valid expiry");
    // Beyond 2262 a time does not fit the clock: converting it overflowed (found by fuzz_jwt).
    EXPECT_EQ(refusal_of(check(with("exp", 17961841517), keys)), "The token has no valid expiry");
    EXPECT_EQ(refusal_of(check(with("exp", 1e300), keys)), "The token has no valid expiry");
    EXPECT_EQ(refusal_of(check(with("iat", 9.3e9), keys)), "The token was issued in the future");
    EXPECT_EQ(refusal_of(check(with("nbf", epoch(now + std::chrono::minutes(2))), keys)), "The token is not valid yet");
    EXPECT_EQ(refusal_of(check(with("iat", epoch(now + std::chrono::minutes(2))), keys)),
              "The token was issued in the future");
    EXPECT_EQ(refusal_of(check(with("sub", nullptr), keys)), "The token names no subject");
}

TEST(Jwt, RefusesTheWrongTypeAndUnknownExtensions) {
    const auto key = TestKey::generate("ES256");
    const auto keys = keys_of({key.jwk("k1")});
    EXPECT_EQ(refusal_of(check(key.sign("ES256", {{"kid", "k1"}, {"typ", "dpop+jwt"}}, claims()), keys)),
              "The token is not an access token (typ)");
    EXPECT_EQ(
        refusal_of(check(key.sign("ES256", {{"kid", "k1"}, {"crit", boost::json::array{"exp"}}}, claims()), keys)),
        "The token uses JWS extensions this server does not know");
}

TEST(Jwt, MalformedTokensDoNotParse) {
    for (std::string_view token : {"", "abc", "a.b", "a.b.c.d", "!!!.e30.", "e30.!!!.", "W10.e30.", "e30.W10."}) {
        EXPECT_FALSE(parse_compact_jws(token).has_value()) << token;
    }
    // Deep nesting in the claims is refused by the parser's depth limit.
    std::string deep(1000, '[');
    EXPECT_FALSE(parse_compact_jws("e30." + testing_support::b64url("{\"a\":" + deep) + ".").has_value());
}

TEST(Jwks, SkipsKeysThatCannotVerify) {
    const auto rsa = TestKey::generate("RS256");
    const auto small = TestKey::generate("RS256", 1024);
    auto enc = rsa.jwk("enc");
    enc["use"] = "enc";
    auto ops = rsa.jwk("ops");
    ops["key_ops"] = boost::json::array{"encrypt"};
    auto with_private = rsa.jwk("priv");
    with_private["d"] = "AAAA";
    auto off_curve = TestKey::generate("ES256").jwk("curve");
    off_curve["y"] = off_curve["x"];  // almost surely not a point of P-256
    auto bad_base64 = rsa.jwk("b64");
    bad_base64["n"] = "!!!";
    const auto keys = keys_of({rsa.jwk("good"),
                               small.jwk("small"),
                               enc,
                               ops,
                               with_private,
                               off_curve,
                               bad_base64,
                               {{"kty", "oct"}, {"k", "c2VjcmV0"}},
                               {{"kty", "EC"}, {"crv", "P-521"}}});
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_EQ(keys.front().kid, "good");
    EXPECT_THROW(parse_jwks(boost::json::object{{"keys", "none"}}), std::invalid_argument);
    EXPECT_THROW(parse_jwks(boost::json::array{}), std::invalid_argument);
}

// A hostile or broken key set costs a bounded amount: a token is checked against each key its kid
// names, or every key of its type, on an I/O thread.
TEST(Jwks, KeepsAtMost32KeysOfTheFirst100Members) {
    const auto key = TestKey::generate("ES256");
    boost::json::array many;
    for (int i = 0; i < 40; ++i)
        many.push_back(key.jwk(std::string("k").append(std::to_string(i))));  // "k" + …: a false -Wrestrict in GCC 12
    auto kept = parse_jwks(boost::json::object{{"keys", many}});
    ASSERT_EQ(kept.size(), 32u);
    EXPECT_EQ(kept.back().kid, "k31");

    boost::json::array padded(100, boost::json::object{{"kty", "oct"}, {"k", "c2VjcmV0"}});
    padded.push_back(key.jwk("late"));
    EXPECT_TRUE(parse_jwks(boost::json::object{{"keys", padded}}).empty());
}

TEST(Jwks, SkipsRsaModuliOver8192Bits) {
    auto jwk = TestKey::generate("RS256").jwk("big");
    jwk["n"] = testing_support::b64url(std::string(1025, '\xff'));
    EXPECT_TRUE(keys_of({jwk}).empty());
}

TEST(Jwt, ScopesComeFromScopeOrScp) {
    EXPECT_EQ(scopes_of({{"scope", "a  b"}}), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(scopes_of({{"scp", boost::json::array{"a", 1, "b"}}}), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(scopes_of({{"scp", "notes.read notes.write"}}), (std::vector<std::string>{"notes.read", "notes.write"}));
    EXPECT_EQ(scopes_of({{"scope", boost::json::array{"a"}}, {"scp", "b"}}), (std::vector<std::string>{"a"}));
    EXPECT_EQ(scopes_of({{"scope", 7}, {"scp", "b"}}), (std::vector<std::string>{"b"}));
    EXPECT_TRUE(scopes_of({{"scope", 7}}).empty());
}

TEST(TokenCache, RemembersUntilExpiryAndStaysBounded) {
    TokenCache cache(2);
    const auto now = Clock::now();
    auto accepted = [&](std::chrono::seconds ttl) {
        return AcceptedToken{std::make_shared<mcp::Principal>(), now + ttl};
    };
    cache.add(TokenCache::digest("a"), accepted(std::chrono::seconds(60)));
    cache.add(TokenCache::digest("b"), accepted(std::chrono::seconds(-1)));
    EXPECT_TRUE(cache.find(TokenCache::digest("a"), now));
    EXPECT_FALSE(cache.find(TokenCache::digest("b"), now));  // expired
    cache.add(TokenCache::digest("c"), accepted(std::chrono::seconds(60)));
    EXPECT_FALSE(cache.find(TokenCache::digest("a"), now));  // the oldest went
    EXPECT_TRUE(cache.find(TokenCache::digest("c"), now));
}

// Introspection answers (RFC 7662) come from the network: wrong types and absurd numbers are refusals,
// never exceptions.
class Introspection : public ::testing::Test {
protected:
    const Clock::time_point now = Clock::now();

    boost::json::object answer() const {
        return {{"active", true}, {"iss", kIssuer},        {"aud", kResource},
                {"sub", "alice"}, {"scope", "notes:read"}, {"exp", epoch(now + std::chrono::hours(2))}};
    }
    std::string verdict_of(const boost::json::object& a) const {
        const auto verdict = introspection_verdict(a, rules(), now);
        if (const auto* r = std::get_if<TokenRefusal>(&verdict)) return r->description;
        return "accepted";
    }
    std::string with(std::string_view name, boost::json::value v) const {
        auto a = answer();
        if (v.is_null())
            a.erase(name);
        else
            a[name] = std::move(v);
        return verdict_of(a);
    }
};

TEST_F(Introspection, AcceptsAnActiveTokenForThisResourceUntilItsExpiry) {
    const auto verdict = introspection_verdict(answer(), rules(), now);
    ASSERT_TRUE(std::holds_alternative<AcceptedToken>(verdict));
    const auto& accepted = std::get<AcceptedToken>(verdict);
    EXPECT_EQ(accepted.principal->subject, "alice");
    EXPECT_EQ(accepted.principal->scopes, (std::vector<std::string>{"notes:read"}));
    EXPECT_EQ(epoch(accepted.expires), epoch(now + std::chrono::hours(2)));  // cached until exp, not less
    auto without_exp = answer();
    without_exp.erase("exp");
    const auto bounded = std::get<AcceptedToken>(introspection_verdict(without_exp, rules(), now));
    EXPECT_EQ(bounded.expires, now + kIntrospectionTtlWithoutExp);
}

TEST_F(Introspection, RefusesWhatIsNotActiveOrNotForThisResource) {
    EXPECT_EQ(with("active", false), "The token is not active");
    EXPECT_EQ(with("active", "true"), "The token is not active");
    EXPECT_EQ(with("active", nullptr), "The token is not active");
    EXPECT_EQ(with("iss", "https://evil.example.com"), "The token was issued by another authorization server");
    EXPECT_EQ(with("iss", 7), "The token was issued by another authorization server");
    EXPECT_EQ(with("aud", "https://other.example.com/mcp"), "The token was issued for another resource");
    EXPECT_EQ(with("aud", nullptr), "The token was issued for another resource");
    EXPECT_EQ(with("sub", nullptr), "The token names no subject");
    EXPECT_EQ(with("sub", 42), "The token names no subject");
}

TEST_F(Introspection, OddTimesAreRefusalsNotExceptions) {
    EXPECT_EQ(with("exp", 1.5), "The token expired");
    EXPECT_EQ(with("exp", 1e300), "The token has no valid expiry");
    EXPECT_EQ(with("exp", -5), "The token has no valid expiry");
    EXPECT_EQ(with("exp", std::uint64_t{18446744073709551615ULL}), "The token has no valid expiry");
    EXPECT_EQ(with("exp", "soon"), "The token has no valid expiry");
    EXPECT_EQ(with("exp", epoch(now - std::chrono::minutes(5))), "The token expired");
    EXPECT_EQ(with("nbf", epoch(now + std::chrono::minutes(5))), "The token is not valid yet");
    EXPECT_EQ(with("nbf", "later"), "The token is not valid yet");
    EXPECT_EQ(with("exp", static_cast<double>(epoch(now + std::chrono::hours(1))) + 0.5), "accepted");
}

TEST(PercentEncoding, EncodesAllButUnreserved) {
    EXPECT_EQ(percent_encoded("a-Z_0.~ :/%+"), "a-Z_0.~%20%3A%2F%25%2B");
    EXPECT_EQ(*percent_decoded(percent_encoded("id:with@odd/chars")), "id:with@odd/chars");
}

}  // namespace
