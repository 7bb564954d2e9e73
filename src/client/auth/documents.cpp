#include "client/auth/documents.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace mcp::detail {

namespace {

namespace json = boost::json;

constexpr std::size_t kMaxString = 8 * 1024;
constexpr std::size_t kMaxTokenString = 64 * 1024;  // access tokens may be large JWTs
constexpr std::size_t kMaxListEntries = 256;

json::object parse_object(std::string_view body, const char* what) {
    json::parse_options options;
    options.max_depth = 16;
    boost::system::error_code ec;
    auto value = json::parse(body, ec, {}, options);
    if (ec) throw std::invalid_argument(std::string(what) + " is not JSON");
    if (!value.is_object()) throw std::invalid_argument(std::string(what) + " is not a JSON object");
    return std::move(value.get_object());
}

std::string string_member(const json::object& o, std::string_view name, const char* what, bool required = false,
                          std::size_t max = kMaxString) {
    const auto* v = o.if_contains(name);
    if (v == nullptr || v->is_null()) {
        if (required) throw std::invalid_argument(std::string(what) + " has no \"" + std::string(name) + "\"");
        return {};
    }
    if (!v->is_string())
        throw std::invalid_argument(std::string(what) + ": \"" + std::string(name) + "\" is not a string");
    if (v->get_string().size() > max)
        throw std::invalid_argument(std::string(what) + ": \"" + std::string(name) + "\" is too long");
    return std::string(v->get_string());
}

std::vector<std::string> string_list(const json::object& o, std::string_view name, const char* what,
                                     bool* present = nullptr) {
    const auto* v = o.if_contains(name);
    if (v == nullptr || v->is_null()) return {};
    if (present != nullptr) *present = true;
    const auto* array = v->if_array();
    if (array == nullptr || array->size() > kMaxListEntries)
        throw std::invalid_argument(std::string(what) + ": \"" + std::string(name) + "\" is not a list of strings");
    std::vector<std::string> out;
    for (const auto& entry : *array) {
        if (!entry.is_string() || entry.get_string().size() > kMaxString)
            throw std::invalid_argument(std::string(what) + ": \"" + std::string(name) + "\" is not a list of strings");
        out.emplace_back(entry.get_string());
    }
    return out;
}

bool bool_member(const json::object& o, std::string_view name, const char* what) {
    const auto* v = o.if_contains(name);
    if (v == nullptr || v->is_null()) return false;
    if (!v->is_bool())
        throw std::invalid_argument(std::string(what) + ": \"" + std::string(name) + "\" is not a boolean");
    return v->get_bool();
}

}  // namespace

ResourceMetadata parse_resource_metadata(std::string_view body) {
    constexpr const char* what = "the protected resource metadata";
    const auto o = parse_object(body, what);
    ResourceMetadata out;
    out.resource = string_member(o, "resource", what, true);
    out.authorization_servers = string_list(o, "authorization_servers", what);
    out.scopes_supported = string_list(o, "scopes_supported", what);
    out.dpop_bound_access_tokens_required = bool_member(o, "dpop_bound_access_tokens_required", what);
    return out;
}

ServerMetadata parse_server_metadata(std::string_view body) {
    constexpr const char* what = "the authorization server metadata";
    const auto o = parse_object(body, what);
    ServerMetadata out;
    out.issuer = string_member(o, "issuer", what, true);
    out.authorization_endpoint = string_member(o, "authorization_endpoint", what);
    out.token_endpoint = string_member(o, "token_endpoint", what);
    out.registration_endpoint = string_member(o, "registration_endpoint", what);
    out.scopes_supported = string_list(o, "scopes_supported", what);
    out.grant_types_supported = string_list(o, "grant_types_supported", what);
    out.code_challenge_methods_supported =
        string_list(o, "code_challenge_methods_supported", what, &out.code_challenge_methods_present);
    out.token_endpoint_auth_methods_supported =
        string_list(o, "token_endpoint_auth_methods_supported", what, &out.token_endpoint_auth_methods_present);
    out.token_endpoint_auth_signing_alg_values_supported =
        string_list(o, "token_endpoint_auth_signing_alg_values_supported", what);
    out.dpop_signing_alg_values_supported = string_list(o, "dpop_signing_alg_values_supported", what);
    out.client_id_metadata_document_supported = bool_member(o, "client_id_metadata_document_supported", what);
    out.authorization_response_iss_parameter_supported =
        bool_member(o, "authorization_response_iss_parameter_supported", what);
    return out;
}

TokenResponse parse_token_response(std::string_view body) {
    constexpr const char* what = "the token response";
    const auto o = parse_object(body, what);
    TokenResponse out;
    out.access_token = string_member(o, "access_token", what, true, kMaxTokenString);
    if (out.access_token.empty()) throw std::invalid_argument("the token response's access_token is empty");
    out.token_type = string_member(o, "token_type", what, true);
    out.refresh_token = string_member(o, "refresh_token", what, false, kMaxTokenString);
    out.scope = string_member(o, "scope", what);
    if (const auto* v = o.if_contains("expires_in"); v != nullptr && !v->is_null()) {
        // A number, or (some servers) a string of digits; within a year's worth of range.
        double seconds = -1;
        if (v->is_int64())
            seconds = static_cast<double>(v->get_int64());
        else if (v->is_uint64())
            seconds = static_cast<double>(v->get_uint64());
        else if (v->is_double())
            seconds = v->get_double();
        else if (v->is_string() && !v->get_string().empty() && v->get_string().size() < 12) {
            seconds = 0;
            for (const char c : v->get_string()) {
                if (c < '0' || c > '9') throw std::invalid_argument("the token response's expires_in is no number");
                seconds = seconds * 10 + (c - '0');
            }
        } else {
            throw std::invalid_argument("the token response's expires_in is no number");
        }
        if (!std::isfinite(seconds) || seconds < 0)
            throw std::invalid_argument("the token response's expires_in is out of range");
        out.expires_in = static_cast<std::int64_t>(std::min(seconds, 10.0 * 365 * 24 * 3600));
    }
    return out;
}

Registration parse_registration(std::string_view body) {
    constexpr const char* what = "the registration response";
    const auto o = parse_object(body, what);
    Registration out;
    out.client_id = string_member(o, "client_id", what, true);
    if (out.client_id.empty()) throw std::invalid_argument("the registration response's client_id is empty");
    out.client_secret = string_member(o, "client_secret", what);
    out.token_endpoint_auth_method = string_member(o, "token_endpoint_auth_method", what);
    return out;
}

std::optional<OAuthErrorResponse> parse_oauth_error(std::string_view body) {
    try {
        const auto o = parse_object(body, "the error");
        OAuthErrorResponse out;
        out.error = string_member(o, "error", "the error", true, 256);
        out.description = string_member(o, "error_description", "the error", false, 1024);
        return out;
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

}  // namespace mcp::detail
