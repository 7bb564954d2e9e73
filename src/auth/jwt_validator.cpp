#include "auth/jwt_validator.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <optional>

namespace mcp::detail {

namespace {

using Clock = std::chrono::system_clock;

TokenRefusal refuse(std::string description) { return TokenRefusal{"invalid_token", std::move(description)}; }

bool typ_acceptable(const boost::json::object& header) {
    const auto* typ = header.if_contains("typ");
    if (typ == nullptr) return true;
    if (!typ->is_string()) return false;
    std::string lower(typ->get_string());
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    return lower == "jwt" || lower == "at+jwt" || lower == "application/at+jwt";
}

// The keys the token may have been signed with: by kid when it names one, else every key of the
// algorithm's type.
std::vector<const VerificationKey*> candidates(const std::vector<VerificationKey>& keys, std::string_view kid,
                                               std::string_view alg, KeyType type, bool& kid_known) {
    std::vector<const VerificationKey*> out;
    kid_known = kid.empty();
    for (const auto& key : keys) {
        if (!kid.empty()) {
            if (key.kid != kid) continue;
            kid_known = true;
        }
        if (key.type == type && (key.alg.empty() || key.alg == alg)) out.push_back(&key);
    }
    return out;
}

std::string subject_of(const boost::json::object& claims) {
    for (const auto* name : {"sub", "client_id"}) {
        const auto* v = claims.if_contains(name);
        if (v != nullptr && v->is_string() && !v->get_string().empty()) return std::string(v->get_string());
    }
    return {};
}

}  // namespace

// The latest time a claim may name: the clock counts nanoseconds in 64 bits and ends in 2262, and
// the leeway is added to what a claim says. Beyond it a claim is nonsense, not a date.
constexpr double kLatestClaimSeconds = 9e9;  // 2255

std::optional<Clock::time_point> numeric_date(const boost::json::object& claims, std::string_view name) {
    const auto* v = claims.if_contains(name);
    if (v == nullptr || !v->is_number()) return std::nullopt;
    const double seconds = v->to_number<double>();
    if (!(seconds >= 0 && seconds < kLatestClaimSeconds)) return std::nullopt;
    return Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
}

std::vector<std::string> scopes_of(const boost::json::object& claims) {
    std::vector<std::string> out;
    const auto* scopes = claims.if_contains("scope");
    if (scopes == nullptr || !(scopes->is_string() || scopes->is_array())) scopes = claims.if_contains("scp");
    if (scopes != nullptr && scopes->is_string()) {
        std::string_view rest = scopes->get_string();
        while (!rest.empty()) {
            const auto space = rest.find(' ');
            if (space != 0) out.emplace_back(rest.substr(0, space));
            rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
        }
    } else if (scopes != nullptr && scopes->is_array()) {
        for (const auto& s : scopes->get_array()) {
            if (s.is_string()) out.emplace_back(s.get_string());
        }
    }
    return out;
}

bool audience_matches(const boost::json::value* aud, const std::vector<std::string>& audiences) {
    if (aud == nullptr) return false;
    auto named = [&](const boost::json::value& v) {
        return v.is_string() && std::find(audiences.begin(), audiences.end(), v.get_string()) != audiences.end();
    };
    if (aud->is_array()) return std::any_of(aud->get_array().begin(), aud->get_array().end(), named);
    return named(*aud);
}

TokenVerdict validate_jwt(const CompactJws& token, const std::vector<VerificationKey>& keys, const TokenRules& rules,
                          Clock::time_point now) {
    const auto* alg_value = token.header.if_contains("alg");
    const std::string_view alg = alg_value && alg_value->is_string() ? std::string_view(alg_value->get_string()) : "";
    const auto type = key_type_for(alg);
    if (!type) return refuse("The token's signing algorithm is not accepted");
    if (!typ_acceptable(token.header)) return refuse("The token is not an access token (typ)");
    if (token.header.contains("crit")) return refuse("The token uses JWS extensions this server does not know");
    const auto* kid_value = token.header.if_contains("kid");
    if (kid_value != nullptr && !kid_value->is_string()) return refuse("The token's key id is malformed");
    const std::string_view kid = kid_value ? std::string_view(kid_value->get_string()) : "";

    bool kid_known = false;
    const auto usable = candidates(keys, kid, alg, *type, kid_known);
    if (!kid_known) return UnknownKey{};
    const bool signed_by_issuer = std::any_of(usable.begin(), usable.end(), [&](const VerificationKey* key) {
        return verify_signature(alg, key->key.get(), token.signing_input, token.signature);
    });
    if (!signed_by_issuer) return refuse("The token's signature is not valid");

    const auto& claims = token.payload;
    const auto* iss = claims.if_contains("iss");
    if (iss == nullptr || !iss->is_string() || iss->get_string() != rules.issuer) {
        return refuse("The token was issued by another authorization server");
    }
    if (!audience_matches(claims.if_contains("aud"), rules.audiences)) {
        return refuse("The token was issued for another resource");
    }
    const auto exp = numeric_date(claims, "exp");
    if (!exp) return refuse("The token has no valid expiry");
    if (now > *exp + rules.leeway) return refuse("The token expired");
    if (claims.contains("nbf")) {
        const auto nbf = numeric_date(claims, "nbf");
        if (!nbf || now + rules.leeway < *nbf) return refuse("The token is not valid yet");
    }
    if (claims.contains("iat")) {
        const auto iat = numeric_date(claims, "iat");
        if (!iat || now + rules.leeway < *iat) return refuse("The token was issued in the future");
    }
    auto subject = subject_of(claims);
    if (subject.empty()) return refuse("The token names no subject");

    auto principal = std::make_shared<Principal>();
    principal->subject = std::move(subject);
    principal->scopes = scopes_of(claims);
    principal->claims = claims;
    return AcceptedToken{std::move(principal), *exp};
}

}  // namespace mcp::detail
