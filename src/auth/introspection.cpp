#include "auth/introspection.hpp"

namespace mcp::detail {

namespace {

TokenRefusal refuse(std::string description) { return TokenRefusal{"invalid_token", std::move(description)}; }

std::string subject_of(const boost::json::object& answer) {
    for (const auto* name : {"sub", "client_id", "username"}) {
        const auto* v = answer.if_contains(name);
        if (v != nullptr && v->is_string() && !v->get_string().empty()) return std::string(v->get_string());
    }
    return {};
}

}  // namespace

IntrospectionVerdict introspection_verdict(const boost::json::object& answer, const TokenRules& rules,
                                           std::chrono::system_clock::time_point now) {
    const auto* active = answer.if_contains("active");
    if (active == nullptr || !active->is_bool() || !active->get_bool()) return refuse("The token is not active");
    if (const auto* iss = answer.if_contains("iss");
        iss != nullptr && !rules.issuer.empty() && (!iss->is_string() || iss->get_string() != rules.issuer)) {
        return refuse("The token was issued by another authorization server");
    }
    if (!audience_matches(answer.if_contains("aud"), rules.audiences)) {
        return refuse("The token was issued for another resource");
    }
    auto expires = now + kIntrospectionTtlWithoutExp;
    if (answer.contains("exp")) {
        const auto exp = numeric_date(answer, "exp");
        if (!exp) return refuse("The token has no valid expiry");
        if (now > *exp + rules.leeway) return refuse("The token expired");
        expires = *exp;
    }
    if (answer.contains("nbf")) {
        const auto nbf = numeric_date(answer, "nbf");
        if (!nbf || now + rules.leeway < *nbf) return refuse("The token is not valid yet");
    }
    auto subject = subject_of(answer);
    if (subject.empty()) return refuse("The token names no subject");

    auto principal = std::make_shared<Principal>();
    principal->subject = std::move(subject);
    principal->scopes = scopes_of(answer);
    principal->claims = answer;
    return AcceptedToken{std::move(principal), expires};
}

}  // namespace mcp::detail
