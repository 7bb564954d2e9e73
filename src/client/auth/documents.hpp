#pragma once
// The JSON documents of an OAuth client, read strictly: protected resource metadata (RFC 9728
// §2), authorization server metadata (RFC 8414 §2, OpenID Connect Discovery), a token response
// (RFC 6749 §5.1, §5.2) and a registration response (RFC 7591 §3.2.1). A member of the wrong type
// refuses the document (std::invalid_argument, with a message naming the member and no value of
// it); unknown members are ignored. Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct ResourceMetadata {
    std::string resource;
    std::vector<std::string> authorization_servers;
    std::vector<std::string> scopes_supported;
    bool dpop_bound_access_tokens_required = false;  // RFC 9728 §2
};

struct ServerMetadata {
    std::string issuer;
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string registration_endpoint;
    std::vector<std::string> scopes_supported;
    std::vector<std::string> grant_types_supported;
    std::vector<std::string> code_challenge_methods_supported;
    std::vector<std::string> token_endpoint_auth_methods_supported;
    std::vector<std::string> token_endpoint_auth_signing_alg_values_supported;
    std::vector<std::string> dpop_signing_alg_values_supported;  // RFC 9449 §5.1
    bool code_challenge_methods_present = false;
    bool token_endpoint_auth_methods_present = false;
    bool client_id_metadata_document_supported = false;
    bool authorization_response_iss_parameter_supported = false;
};

struct TokenResponse {
    std::string access_token;
    std::string token_type;
    std::string refresh_token;
    std::string scope;
    std::optional<std::int64_t> expires_in;  // seconds
};

// An error response of the token or registration endpoint (RFC 6749 §5.2).
struct OAuthErrorResponse {
    std::string error;
    std::string description;
};

struct Registration {
    std::string client_id;
    std::string client_secret;
    std::string token_endpoint_auth_method;
};

// Each throws std::invalid_argument for a body that is not such a document.
ResourceMetadata parse_resource_metadata(std::string_view body);
ServerMetadata parse_server_metadata(std::string_view body);
TokenResponse parse_token_response(std::string_view body);
Registration parse_registration(std::string_view body);
// Nothing when the body is no OAuth error object.
std::optional<OAuthErrorResponse> parse_oauth_error(std::string_view body);

}  // namespace mcp::detail
