#include "transport/http/bearer_auth.hpp"

#include "transport/http/guards.hpp"
#include "util/percent_encoding.hpp"

#include <mcp/server/server.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kWellKnown = "/.well-known/oauth-protected-resource";

// RFC 9110 §5.6.4 quoted-string: our descriptions are plain ASCII, but a backslash or quote
// must still not end the string early.
std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
    }
    return out + '"';
}

std::string joined(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
    return out;
}

// scheme://authority and the path of an absolute URL.
std::pair<std::string, std::string> split_url(const std::string& url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) throw std::invalid_argument("not an absolute URL: " + url);
    const auto path_start = url.find('/', scheme_end + 3);
    if (path_start == std::string::npos) return {url, ""};
    std::string path = url.substr(path_start, url.find_first_of("?#", path_start) - path_start);
    if (path == "/") path.clear();
    return {url.substr(0, path_start), path};
}

void read_credentials(const std::string& file, VerifierSettings& settings) {
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line)) throw std::invalid_argument("cannot read the client credentials in " + file);
    line = std::string(trim(line));
    const auto colon = line.find(':');
    auto id = colon == std::string::npos ? std::nullopt : percent_decoded(line.substr(0, colon));
    auto secret = colon == std::string::npos ? std::nullopt : percent_decoded(line.substr(colon + 1));
    if (!id || !secret || id->empty()) {
        throw std::invalid_argument(file + " must hold client_id:client_secret on its first line");
    }
    settings.client_id = std::move(*id);
    settings.client_secret = std::move(*secret);
}

VerifierSettings settings_of(const AuthOptions& options, const std::string& resource) {
    if (!options.jwks_uri.empty() && options.issuer.empty()) {
        throw std::invalid_argument("--auth-jwks-uri needs --auth-issuer: the iss every token must name");
    }
    VerifierSettings s;
    s.issuer = options.issuer;
    s.jwks_uri = options.jwks_uri;
    s.introspection_url = options.introspection_url;
    s.audiences = {options.audience.empty() ? resource : options.audience};
    s.leeway = std::chrono::duration_cast<std::chrono::seconds>(options.leeway);
    s.ca_file = options.ca_file;
    if (!options.client_credentials_file.empty()) read_credentials(options.client_credentials_file, s);
    if (!s.introspection_url.empty() && s.client_id.empty()) {
        throw std::invalid_argument("--auth-introspection-url needs --auth-client-credentials-file");
    }
    return s;
}

}  // namespace

BearerAuth::BearerAuth(const AuthOptions& options, std::string resource)
    : resource_(std::move(resource)),
      authorization_servers_(options.authorization_servers),
      scopes_(options.scopes),
      resource_name_(options.resource_name),
      resource_documentation_(options.resource_documentation),
      verifier_(settings_of(options, resource_)) {
    const auto [origin, path] = split_url(resource_);
    metadata_path_ = std::string(kWellKnown) + path;
    metadata_url_ = origin + metadata_path_;
    if (authorization_servers_.empty() && !options.issuer.empty()) authorization_servers_ = {options.issuer};
}

bool BearerAuth::is_metadata_path(std::string_view path) const { return path == metadata_path_ || path == kWellKnown; }

std::string BearerAuth::metadata_document(const Server& server) const {
    std::set<std::string> scopes(scopes_.begin(), scopes_.end());
    for (auto& s : server.required_scopes()) scopes.insert(std::move(s));
    boost::json::array servers, supported;
    for (const auto& s : authorization_servers_) servers.emplace_back(s);
    for (const auto& s : scopes) supported.emplace_back(s);
    boost::json::object doc{{"resource", resource_},
                            {"authorization_servers", std::move(servers)},
                            {"scopes_supported", std::move(supported)},
                            {"bearer_methods_supported", boost::json::array{"header"}}};
    if (!resource_name_.empty()) doc["resource_name"] = resource_name_;
    if (!resource_documentation_.empty()) doc["resource_documentation"] = resource_documentation_;
    return boost::json::serialize(doc);
}

boost::asio::awaitable<BearerVerdict> BearerAuth::check(std::string_view authorization,
                                                        std::shared_ptr<FetchRecords> fetches) {
    constexpr std::string_view scheme = "bearer ";
    if (authorization.size() <= scheme.size() || !ascii_iequals(authorization.substr(0, scheme.size()), scheme)) {
        co_return TokenRefusal{"", "No bearer token"};
    }
    co_return co_await verifier_.verify(std::string(trim(authorization.substr(scheme.size()))), std::move(fetches));
}

bool BearerAuth::grants_required_scopes(const Principal& principal) const {
    return std::all_of(scopes_.begin(), scopes_.end(), [&](const std::string& scope) {
        return std::find(principal.scopes.begin(), principal.scopes.end(), scope) != principal.scopes.end();
    });
}

std::string BearerAuth::challenge(std::string_view error, std::string_view description,
                                  const std::vector<std::string>& scopes) const {
    std::string out = "Bearer resource_metadata=" + quoted(metadata_url_);
    if (!scopes.empty()) out += ", scope=" + quoted(joined(scopes));
    if (!error.empty()) out += ", error=" + quoted(error) + ", error_description=" + quoted(description);
    return out;
}

std::string BearerAuth::unauthorized_challenge(const TokenRefusal& refusal) const {
    return challenge(refusal.error, refusal.description, scopes_);
}

std::string BearerAuth::insufficient_scope_challenge(const std::vector<std::string>& needed,
                                                     std::string_view description) const {
    std::vector<std::string> all = scopes_;
    for (const auto& s : needed) {
        if (std::find(all.begin(), all.end(), s) == all.end()) all.push_back(s);
    }
    return challenge("insufficient_scope", description, all);
}

}  // namespace mcp::detail
