// The client's OAuth flow (2025-11-25 and 2026-07-28 basic/authorization.mdx; 2025-03-26's
// fallbacks): discovery, registration, the grants, refresh and step-up.
#include "client/auth/authorizer.hpp"

#include "client/auth/challenge.hpp"
#include "jose/jws.hpp"
#include "net/http_error.hpp"
#include "net/proxy.hpp"
#include "net/url.hpp"
#include "util/base64.hpp"
#include "util/log.hpp"
#include "util/percent_encoding.hpp"
#include "util/random.hpp"

#include <openssl/sha.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>
#include <stdexcept>

namespace mcp::detail {

namespace asio = boost::asio;

namespace {

// A failure of the flow: its message goes to the application (no secret in it).
struct FlowError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::vector<std::string> split_scopes(std::string_view text) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        const auto start = i;
        while (i < text.size() && text[i] != ' ') ++i;
        if (i > start) out.emplace_back(text.substr(start, i - start));
    }
    return out;
}

std::string join_scopes(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) {
        if (!out.empty()) out += ' ';
        out += s;
    }
    return out;
}

void add_unique(std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const auto& s : from) {
        if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
    }
}

bool contains(const std::vector<std::string>& list, std::string_view value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

// "https://as.example.com/tenant" -> origin "https://as.example.com", path "/tenant" (no trailing '/').
struct Split {
    std::string origin;
    std::string path;
};
Split split_url(const std::string& url) {
    const auto parsed = net::parse_url(url);
    if (!parsed) throw FlowError("not an http(s) URL: " + printable(url));
    const auto scheme_end = url.find("://");
    const auto authority_end = url.find_first_of("/?#", scheme_end + 3);
    Split out;
    out.origin = url.substr(0, authority_end);
    auto path = parsed->target;
    if (const auto q = path.find('?'); q != std::string::npos) path.resize(q);
    while (!path.empty() && path.back() == '/') path.pop_back();
    out.path = path;
    return out;
}

std::string with_query(const std::string& endpoint, const std::vector<std::pair<std::string, std::string>>& params) {
    return endpoint + (endpoint.find('?') == std::string::npos ? "?" : "&") + form_encode(params);
}

std::string oauth_error_text(const net::HttpResponse& response) {
    if (auto e = parse_oauth_error(response.body)) {
        std::string out = "HTTP " + std::to_string(response.status) + ", " + printable(e->error);
        if (!e->description.empty()) out += ": " + printable(e->description);
        return out;
    }
    return "HTTP " + std::to_string(response.status);
}

}  // namespace

std::map<std::string, std::string> query_parameters(std::string_view url) {
    std::map<std::string, std::string> out;
    const auto q = url.find('?');
    if (q == std::string_view::npos) return out;
    auto query = url.substr(q + 1);
    if (const auto hash = query.find('#'); hash != std::string_view::npos) query = query.substr(0, hash);
    while (!query.empty()) {
        const auto amp = query.find('&');
        auto pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const auto eq = pair.find('=');
        std::string name(pair.substr(0, eq));
        std::string value(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
        std::replace(name.begin(), name.end(), '+', ' ');
        std::replace(value.begin(), value.end(), '+', ' ');
        auto n = percent_decoded(name);
        auto v = percent_decoded(value);
        if (!n || !v) continue;
        out.emplace(std::move(*n), std::move(*v));
    }
    return out;
}

std::string form_encode(const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string out;
    for (const auto& [name, value] : fields) {
        if (!out.empty()) out += '&';
        out += percent_encoded(name) + "=" + percent_encoded(value);
    }
    return out;
}

std::string pkce_challenge(std::string_view verifier) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
    return base64url_encode({digest, sizeof(digest)});
}

Authorizer::Authorizer(OAuthOptions options, std::string resource_url, net::HttpClientOptions http)
    : options_(std::move(options)), resource_url_(std::move(resource_url)), http_options_(std::move(http)) {
    const auto parsed = net::parse_url(resource_url_);
    if (!parsed) throw std::invalid_argument("not an http(s) URL: \"" + resource_url_ + "\"");
    resource_origin_ = parsed->origin();
    resource_base_ = split_url(resource_url_).origin;
    resource_path_ = split_url(resource_url_).path;
    if (!options_.store) options_.store = std::make_shared<MemoryTokenStore>();
    if (options_.grant != OAuthOptions::Grant::authorization_code && options_.client_id.empty())
        throw std::invalid_argument(
            "OAuth client credentials, jwt-bearer and identity assertion grants need a client_id");
    if (options_.grant == OAuthOptions::Grant::jwt_bearer && !options_.assertion)
        throw std::invalid_argument("the OAuth jwt-bearer grant needs an assertion");
    if (options_.grant == OAuthOptions::Grant::identity_assertion &&
        (!options_.identity_provider || options_.identity_provider->token_endpoint.empty() ||
         !options_.identity_provider->id_token))
        throw std::invalid_argument("the OAuth identity assertion grant needs an identity provider and an ID token");
    if (!options_.private_key_pem.empty()) {
        const auto key = load_private_key_pem(options_.private_key_pem);
        if (!key) throw std::invalid_argument("OAuth private_key_pem is no PEM private key");
        const auto type = key_type_for(options_.signing_algorithm);
        if (!type || key_type_of(key.get()) != type)
            throw std::invalid_argument("OAuth private_key_pem does not fit signing_algorithm " +
                                        options_.signing_algorithm);
    }
    if (!options_.redirect_uri.empty() && !options_.wait_for_redirect)
        throw std::invalid_argument("an OAuth redirect_uri needs wait_for_redirect");
    http_options_.request_timeout = options_.request_timeout;
    http_options_.max_body_bytes = options_.max_document_bytes;
    http_ = std::make_unique<net::HttpClient>(io_, http_options_);
    if (auto stored = options_.store->load(resource_url_)) state_ = std::move(*stored);
    step_up_scope_ = state_.scope;
    // A DPoP-bound token of an earlier run is bound to a key that is gone.
    if (state_.token_type == "DPoP") {
        state_.access_token.clear();
        state_.refresh_token.clear();
    }
    if (options_.dpop) {
        dpop_key_ = std::shared_ptr<EVP_PKEY>(generate_ec_p256_key().release(), PkeyDeleter{});
        dpop_jwk_ = public_jwk(dpop_key_.get());
    }
}

Authorizer::~Authorizer() {
    stop_.request_stop();
    pool_.join();
    http_.reset();
}

bool Authorizer::covers(std::string_view url) const {
    const auto parsed = net::parse_url(url);
    return parsed && parsed->origin() == resource_origin_;
}

std::string Authorizer::token() const {
    std::lock_guard lock(mutex_);
    return state_.access_token;
}

std::string Authorizer::present(net::HttpRequest& request) const {
    std::string token;
    std::string nonce;
    bool dpop = false;
    {
        std::lock_guard lock(mutex_);
        token = state_.access_token;
        dpop = state_.token_type == "DPoP";
        nonce = rs_nonce_;
    }
    if (token.empty()) return token;
    if (dpop) {
        request.headers.add("Authorization", "DPoP " + token);
        request.headers.add("DPoP", dpop_proof(request.method, request.url, token, nonce));
    } else {
        request.headers.add("Authorization", "Bearer " + token);
    }
    return token;
}

bool Authorizer::take_nonce(unsigned status, const net::HttpHeaders& headers) {
    const auto nonce = headers.get("DPoP-Nonce");
    if (!nonce || nonce->empty() || nonce->size() > 1024) return false;
    {
        std::lock_guard lock(mutex_);
        rs_nonce_ = std::string(*nonce);
    }
    if (status != 401) return false;
    const auto values = headers.get_all("WWW-Authenticate");
    const auto challenge = bearer_challenge({values.begin(), values.end()});
    return challenge && challenge->error == "use_dpop_nonce";
}

// DPoP only when both ends take it: a resource server that offers no DPoP challenge refuses a
// DPoP-bound token presented with the DPoP scheme.
bool Authorizer::dpop_with(const Discovered& d) const {
    return dpop_key_ && d.resource_offers_dpop && d.server &&
           contains(d.server->dpop_signing_alg_values_supported, "ES256");
}

std::string Authorizer::dpop_proof(std::string_view method, std::string_view url, const std::string& token,
                                   const std::string& nonce) const {
    // htu: the URL without its query and fragment (RFC 9449 §4.2).
    auto htu = url.substr(0, url.find_first_of("?#"));
    boost::json::object claims{{"jti", random_token(18)}, {"htm", method}, {"htu", htu}, {"iat", now_seconds()}};
    if (!token.empty()) claims["ath"] = pkce_challenge(token);  // BASE64URL(SHA-256(token))
    if (!nonce.empty()) claims["nonce"] = nonce;
    return sign_compact_jws("ES256", dpop_key_.get(), {{"typ", "dpop+jwt"}, {"jwk", dpop_jwk_}}, claims);
}

void Authorizer::cancel() { stop_.request_stop(); }

asio::awaitable<Authorizer::Outcome> Authorizer::renew(unsigned status, std::vector<std::string> www_authenticate,
                                                       std::string sent) {
    auto self = shared_from_this();
    // Named, as every operand of the co_await: GCC 12 frees some temporaries of one twice.
    auto initiation = [self, status, www_authenticate = std::move(www_authenticate),
                       sent = std::move(sent)](auto handler) mutable {
        auto work = asio::make_work_guard(asio::get_associated_executor(handler));
        auto& pool = self->pool_;
        asio::post(pool, [self = std::move(self), status, www_authenticate = std::move(www_authenticate),
                          sent = std::move(sent), handler = std::move(handler), work = std::move(work)]() mutable {
            auto outcome = self->renew_now(status, www_authenticate, sent);
            self.reset();  // never the last owner here: the pool would join itself
            auto executor = work.get_executor();
            asio::post(executor, [handler = std::move(handler), outcome = std::move(outcome)]() mutable {
                std::move(handler)(std::move(outcome));
            });
            work.reset();
        });
    };
    auto outcome = co_await asio::async_initiate<const asio::use_awaitable_t<>&, void(Outcome)>(std::move(initiation),
                                                                                                asio::use_awaitable);
    co_return outcome;
}

Authorizer::Outcome Authorizer::renew_now(unsigned status, const std::vector<std::string>& www_authenticate,
                                          const std::string& sent) {
    if (stop_.stop_requested()) return {false, "the transport is closing"};
    {
        std::lock_guard lock(mutex_);
        // Another request's renewal already brought a token this one did not carry.
        if (!state_.access_token.empty() && state_.access_token != sent) return {true, {}};
    }
    try {
        return renew_locked(status, www_authenticate);
    } catch (const FlowError& e) {
        log().warn("client: OAuth authorization of {} failed: {}", resource_url_, e.what());
        return {false, e.what()};
    } catch (const net::HttpError& e) {
        log().warn("client: OAuth authorization of {} failed: {}", resource_url_, e.what());
        return {false, std::string("OAuth: ") + e.what()};
    } catch (const std::invalid_argument& e) {
        log().warn("client: OAuth authorization of {} failed: {}", resource_url_, e.what());
        return {false, std::string("OAuth: ") + e.what()};
    } catch (const std::runtime_error& e) {
        log().warn("client: OAuth authorization of {} failed: {}", resource_url_, e.what());
        return {false, std::string("OAuth: ") + e.what()};
    }
}

Authorizer::Outcome Authorizer::renew_locked(unsigned status, const std::vector<std::string>& www_authenticate) {
    std::vector<std::string_view> values(www_authenticate.begin(), www_authenticate.end());
    const auto challenge = bearer_challenge(values).value_or(BearerChallenge{});
    const bool step_up = status == 403 && challenge.error == "insufficient_scope";
    auto d = discover(challenge.resource_metadata);
    d.resource_offers_dpop = challenge.dpop || (d.resource && d.resource->dpop_bound_access_tokens_required);

    // A registration, and its tokens, belong to their authorization server (SEP-2352).
    if (!state_.issuer.empty() && state_.issuer != d.issuer) {
        log().info("client: {} now names the authorization server {}; registering again", resource_url_, d.issuer);
        StoredAuthorization fresh;
        set_token(std::move(fresh));
        step_up_scope_.clear();
    }
    state_.issuer = d.issuer;

    // An expired or revoked token: its refresh token first, unless more scopes are wanted.
    if (!step_up && !state_.refresh_token.empty() && refresh(d)) return {true, {}};

    const auto scopes = choose_scopes(d, challenge.scope, step_up);
    if (options_.grant != OAuthOptions::Grant::authorization_code) {
        machine_grant(d, scopes);
    } else {
        if (d.server && !contains(d.server->code_challenge_methods_supported, "S256"))
            throw FlowError("the authorization server " + d.issuer +
                            " does not advertise PKCE S256 (code_challenge_methods_supported)");
        if (state_.client_id.empty()) register_client(d);
        authorization_code(d, scopes);
    }
    return {true, {}};
}

void Authorizer::check_url(const std::string& url, const char* what) const {
    const auto parsed = net::parse_url(url);
    if (!parsed) throw FlowError(std::string(what) + " is not an http(s) URL: " + printable(url));
    if (!parsed->tls && !net::is_loopback(parsed->host))
        throw FlowError(std::string(what) + " is not HTTPS: " + printable(url));
}

net::HttpResponse Authorizer::exchange(net::HttpRequest request) {
    if (stop_.stop_requested()) throw FlowError("the transport is closing");
    request.stop = stop_.get_token();
    request.timeout = options_.request_timeout;
    request.max_body_bytes = options_.max_document_bytes;
    std::optional<net::HttpResponse> response;
    std::exception_ptr error;
    bool done = false;
    asio::co_spawn(io_, http_->fetch(std::move(request)), [&](const std::exception_ptr& e, net::HttpResponse r) {
        error = e;
        if (!e) response = std::move(r);
        done = true;
    });
    io_.restart();
    while (!done && io_.run_one() > 0) {}
    if (!done) throw FlowError("the authorization request did not complete");
    if (error) std::rethrow_exception(error);
    return std::move(*response);
}

// ---- Discovery

std::optional<ResourceMetadata> Authorizer::fetch_resource_metadata(const std::string& hinted) {
    std::vector<std::string> candidates;
    if (!hinted.empty()) {
        check_url(hinted, "the resource_metadata of WWW-Authenticate");
        candidates.push_back(hinted);
    } else {
        // RFC 9728 §3.1: the well-known name inserted before the path; then at the root.
        if (!resource_path_.empty())
            candidates.push_back(resource_base_ + "/.well-known/oauth-protected-resource" + resource_path_);
        candidates.push_back(resource_base_ + "/.well-known/oauth-protected-resource");
    }
    for (const auto& url : candidates) {
        net::HttpRequest request;
        request.url = url;
        request.headers.add("Accept", "application/json");
        const auto response = exchange(std::move(request));
        if (response.status == 200) {
            auto metadata = parse_resource_metadata(response.body);
            // RFC 9728 §3.3: the metadata is for this resource, else it is not to be used.
            const auto claimed = net::parse_url(metadata.resource);
            const bool same_origin = claimed && claimed->origin() == resource_origin_;
            const auto claimed_path = same_origin ? split_url(metadata.resource).path : std::string();
            const bool covers_path = same_origin && (claimed_path.empty() || resource_path_ == claimed_path ||
                                                     resource_path_.starts_with(claimed_path + "/"));
            if (!covers_path)
                throw FlowError("the protected resource metadata names the resource " + printable(metadata.resource) +
                                ", not " + resource_url_);
            return metadata;
        }
        if (!hinted.empty())
            throw FlowError("the protected resource metadata at " + url + " answered HTTP " +
                            std::to_string(response.status));
    }
    return std::nullopt;
}

std::optional<ServerMetadata> Authorizer::fetch_server_metadata(const std::string& issuer, bool known_issuer) {
    if (auto it = metadata_cache_.find(issuer); it != metadata_cache_.end()) return it->second;
    const auto [origin, path] = split_url(issuer);
    // RFC 8414 §3.1 and OpenID Connect Discovery, path inserted, then OpenID's path appended.
    std::vector<std::string> candidates;
    if (path.empty()) {
        candidates = {origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"};
    } else {
        candidates = {origin + "/.well-known/oauth-authorization-server" + path,
                      origin + "/.well-known/openid-configuration" + path,
                      origin + path + "/.well-known/openid-configuration"};
    }
    for (const auto& url : candidates) {
        net::HttpRequest request;
        request.url = url;
        request.headers.add("Accept", "application/json");
        const auto response = exchange(std::move(request));
        if (response.status != 200) continue;
        auto metadata = parse_server_metadata(response.body);
        // RFC 8414 §3.3: the issuer is the one the URL was made from, exactly. A 2025-03-26 server
        // named no issuer: its origin was a guess, and the document says which it is.
        if (known_issuer && metadata.issuer != issuer) {
            std::string why = "the authorization server metadata at ";
            why.append(url).append(" names the issuer ").append(printable(metadata.issuer)).append(", not ");
            throw FlowError(why.append(issuer));
        }
        for (const auto* endpoint :
             {&metadata.authorization_endpoint, &metadata.token_endpoint, &metadata.registration_endpoint}) {
            if (!endpoint->empty()) check_url(*endpoint, "an endpoint of the authorization server");
        }
        metadata_cache_[issuer] = metadata;
        return metadata;
    }
    return std::nullopt;
}

Authorizer::Discovered Authorizer::discover(const std::string& resource_metadata_url) {
    Discovered d;
    d.resource = fetch_resource_metadata(resource_metadata_url);
    if (d.resource) {
        if (d.resource->authorization_servers.empty())
            throw FlowError("the protected resource metadata of " + resource_url_ + " names no authorization server");
        d.issuer = d.resource->authorization_servers.front();
    } else {
        // 2025-03-26: no resource metadata; the MCP server's origin is the authorization server.
        d.issuer = resource_base_;
    }
    check_url(d.issuer, "the authorization server");
    d.server = fetch_server_metadata(d.issuer, d.resource.has_value());
    if (d.server) {
        d.issuer = d.server->issuer;
        d.authorization_endpoint = d.server->authorization_endpoint;
        d.token_endpoint = d.server->token_endpoint;
        d.registration_endpoint = d.server->registration_endpoint;
    } else {
        // 2025-03-26 "Fallbacks for Servers without Metadata Discovery": the default paths at the
        // authorization server's base URL.
        const auto origin = split_url(d.issuer).origin;
        d.authorization_endpoint = origin + "/authorize";
        d.token_endpoint = origin + "/token";
        d.registration_endpoint = origin + "/register";
    }
    if (d.token_endpoint.empty()) throw FlowError("the authorization server " + d.issuer + " names no token endpoint");
    return d;
}

// ---- Registration

std::string Authorizer::choose_auth_method(const ServerMetadata* server) const {
    if (!state_.token_endpoint_auth_method.empty()) return state_.token_endpoint_auth_method;
    if (!options_.private_key_pem.empty()) return "private_key_jwt";
    if (state_.client_secret.empty()) return "none";
    const bool listed = server != nullptr && server->token_endpoint_auth_methods_present;
    const auto& methods = listed ? server->token_endpoint_auth_methods_supported : std::vector<std::string>{};
    if (!listed || contains(methods, "client_secret_basic")) return "client_secret_basic";
    if (contains(methods, "client_secret_post")) return "client_secret_post";
    return "client_secret_basic";
}

void Authorizer::register_client(const Discovered& d) {
    const bool preregistered_here =
        !options_.client_id.empty() && (options_.client_issuer.empty() || options_.client_issuer == d.issuer);
    if (preregistered_here) {
        state_.client_id = options_.client_id;
        state_.client_secret = options_.client_secret;
        state_.token_endpoint_auth_method.clear();
        return;
    }
    if (d.server && d.server->client_id_metadata_document_supported && !options_.client_metadata_url.empty()) {
        state_.client_id = options_.client_metadata_url;
        state_.client_secret.clear();
        state_.token_endpoint_auth_method = "none";
        return;
    }
    if (d.registration_endpoint.empty())
        throw FlowError("the authorization server " + d.issuer +
                        " offers no registration, and no client_id is configured for it");
    const auto* server = d.server ? &*d.server : nullptr;
    std::string method = "none";
    if (server != nullptr && server->token_endpoint_auth_methods_present &&
        !contains(server->token_endpoint_auth_methods_supported, "none")) {
        method = contains(server->token_endpoint_auth_methods_supported, "client_secret_basic") ? "client_secret_basic"
                                                                                                : "client_secret_post";
    }
    boost::json::object body;
    body["client_name"] = options_.client_name;
    boost::json::array redirects;
    redirects.emplace_back(options_.redirect_uri.empty() ? "http://127.0.0.1/callback" : options_.redirect_uri);
    body["redirect_uris"] = std::move(redirects);
    body["grant_types"] = boost::json::array{"authorization_code", "refresh_token"};
    body["response_types"] = boost::json::array{"code"};
    body["token_endpoint_auth_method"] = method;
    body["application_type"] = options_.application_type;
    net::HttpRequest request;
    request.method = "POST";
    request.url = d.registration_endpoint;
    request.headers.add("Content-Type", "application/json");
    request.headers.add("Accept", "application/json");
    request.body = boost::json::serialize(body);
    const auto response = exchange(std::move(request));
    if (response.status != 200 && response.status != 201)
        throw FlowError("dynamic client registration at " + d.registration_endpoint +
                        " failed: " + oauth_error_text(response));
    const auto registration = parse_registration(response.body);
    state_.client_id = registration.client_id;
    state_.client_secret = registration.client_secret;
    state_.token_endpoint_auth_method = registration.token_endpoint_auth_method;
    if (state_.token_endpoint_auth_method.empty())
        state_.token_endpoint_auth_method = state_.client_secret.empty() ? "none" : method;
    save();
}

// ---- Scopes (2025-11-25 "Scope Selection Strategy"; SEP-2350's union on step-up; SEP-2207)

std::vector<std::string> Authorizer::choose_scopes(const Discovered& d, const std::string& challenged,
                                                   bool step_up) const {
    std::vector<std::string> scopes;
    if (!options_.scopes.empty()) {
        scopes = options_.scopes;
    } else if (!challenged.empty()) {
        scopes = split_scopes(challenged);
    } else if (d.resource) {
        scopes = d.resource->scopes_supported;
    }
    if (step_up) {
        auto all = split_scopes(step_up_scope_);
        add_unique(all, scopes);
        scopes = std::move(all);
    }
    if (options_.grant == OAuthOptions::Grant::authorization_code && d.server &&
        contains(d.server->scopes_supported, "offline_access") && !contains(scopes, "offline_access"))
        scopes.emplace_back("offline_access");
    return scopes;
}

// ---- Grants

void Authorizer::add_client_authentication(const Discovered& d, net::HttpRequest& request,
                                           std::vector<std::pair<std::string, std::string>>& form) const {
    const auto method = choose_auth_method(d.server ? &*d.server : nullptr);
    if (method == "client_secret_basic") {
        const auto credentials = percent_encoded(state_.client_id) + ":" + percent_encoded(state_.client_secret);
        request.headers.add("Authorization", "Basic " + base64_encode(as_bytes(credentials)));
    } else if (method == "client_secret_post") {
        form.emplace_back("client_id", state_.client_id);
        form.emplace_back("client_secret", state_.client_secret);
    } else if (method == "private_key_jwt") {
        if (options_.private_key_pem.empty())
            throw FlowError("the client is registered for private_key_jwt, and has no private key");
        const auto key = load_private_key_pem(options_.private_key_pem);
        const auto now = now_seconds();
        boost::json::object claims{{"iss", state_.client_id}, {"sub", state_.client_id},
                                   {"aud", d.issuer},         {"iat", now},
                                   {"exp", now + 300},        {"jti", random_token(18)}};
        form.emplace_back("client_id", state_.client_id);
        form.emplace_back("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        form.emplace_back("client_assertion",
                          sign_compact_jws(options_.signing_algorithm, key.get(), {{"typ", "JWT"}}, claims));
    } else {
        form.emplace_back("client_id", state_.client_id);
    }
}

void Authorizer::request_token(const Discovered& d, const std::vector<std::pair<std::string, std::string>>& form,
                               const std::string& grant_type, const std::string& scope) {
    const bool dpop = dpop_with(d);
    net::HttpResponse response;
    // Once more when the server asks for a DPoP nonce (RFC 9449 §8).
    for (int attempt = 0; attempt < 2; ++attempt) {
        net::HttpRequest request;
        request.method = "POST";
        request.url = d.token_endpoint;
        request.headers.add("Content-Type", "application/x-www-form-urlencoded");
        request.headers.add("Accept", "application/json");
        if (dpop) request.headers.add("DPoP", dpop_proof("POST", d.token_endpoint, {}, as_nonce_));
        auto fields = form;
        add_client_authentication(d, request, fields);
        request.body = form_encode(fields);
        response = exchange(std::move(request));
        const auto nonce = response.headers.get("DPoP-Nonce");
        if (dpop && nonce && !nonce->empty() && nonce->size() <= 1024) as_nonce_ = std::string(*nonce);
        const auto error = response.status == 400 ? parse_oauth_error(response.body) : std::nullopt;
        if (!(dpop && nonce && error && error->error == "use_dpop_nonce")) break;
    }
    if (response.status != 200)
        throw FlowError("the token request (" + grant_type + ") to " + d.token_endpoint +
                        " failed: " + oauth_error_text(response));
    const auto token = parse_token_response(response.body);
    const auto type = token.token_type;
    const bool bearer = type.size() == 6 && (type == "Bearer" || type == "bearer" || type == "BEARER");
    const bool bound = dpop && (type == "DPoP" || type == "dpop");
    if (!bearer && !bound)
        throw FlowError("the token endpoint issued a token of type " + printable(type) + ", not Bearer" +
                        (dpop ? " nor DPoP" : ""));
    StoredAuthorization next = state_;
    next.access_token = token.access_token;
    next.token_type = bound ? "DPoP" : "Bearer";
    if (!token.refresh_token.empty() || grant_type != "refresh_token") next.refresh_token = token.refresh_token;
    next.scope = scope;
    next.expires_at = token.expires_in ? now_seconds() + *token.expires_in : 0;
    set_token(std::move(next));
    step_up_scope_ = scope;
    if (options_.on_token) options_.on_token(TokenEvent{grant_type, d.issuer, scope});
}

bool Authorizer::refresh(const Discovered& d) {
    std::vector<std::pair<std::string, std::string>> form{{"grant_type", "refresh_token"},
                                                          {"refresh_token", state_.refresh_token}};
    if (d.resource) form.emplace_back("resource", d.resource->resource);
    try {
        request_token(d, form, "refresh_token", state_.scope);
        return true;
    } catch (const FlowError& e) {
        log().info("client: refreshing the token of {} failed ({}); authorizing again", resource_url_, e.what());
    } catch (const std::invalid_argument& e) {
        log().info("client: refreshing the token of {} failed ({}); authorizing again", resource_url_, e.what());
    }
    StoredAuthorization next = state_;
    next.access_token.clear();
    next.refresh_token.clear();
    set_token(std::move(next));
    return false;
}

void Authorizer::machine_grant(const Discovered& d, const std::vector<std::string>& scopes) {
    state_.client_id = options_.client_id;
    state_.client_secret = options_.client_secret;
    state_.token_endpoint_auth_method.clear();
    const auto scope = join_scopes(scopes);
    std::vector<std::pair<std::string, std::string>> form;
    std::string grant;
    switch (options_.grant) {
        case OAuthOptions::Grant::client_credentials:
            grant = "client_credentials";
            form.emplace_back("grant_type", grant);
            break;
        case OAuthOptions::Grant::jwt_bearer:
            grant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
            form.emplace_back("grant_type", grant);
            form.emplace_back("assertion", options_.assertion());
            break;
        case OAuthOptions::Grant::identity_assertion:
            grant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
            form.emplace_back("grant_type", grant);
            form.emplace_back("assertion", identity_assertion_grant(d, scope));
            break;
        case OAuthOptions::Grant::authorization_code: throw FlowError("not a grant without a user");
    }
    if (!scope.empty()) form.emplace_back("scope", scope);
    if (d.resource) form.emplace_back("resource", d.resource->resource);
    request_token(d, form, grant, scope);
}

// SEP-990 §5: token exchange (RFC 8693) at the identity provider, for an ID-JAG whose audience is
// the authorization server and whose resource is the MCP server.
std::string Authorizer::identity_assertion_grant(const Discovered& d, const std::string& scope) {
    const auto& idp = *options_.identity_provider;
    check_url(idp.token_endpoint, "the identity provider's token endpoint");
    std::vector<std::pair<std::string, std::string>> form{
        {"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
        {"requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"},
        {"subject_token", idp.id_token()},
        {"subject_token_type", "urn:ietf:params:oauth:token-type:id_token"},
        {"audience", d.issuer}};
    form.emplace_back("resource", d.resource ? d.resource->resource : resource_url_);
    if (!scope.empty()) form.emplace_back("scope", scope);
    net::HttpRequest request;
    request.method = "POST";
    request.url = idp.token_endpoint;
    request.headers.add("Content-Type", "application/x-www-form-urlencoded");
    request.headers.add("Accept", "application/json");
    if (idp.client_secret.empty()) {
        form.emplace_back("client_id", idp.client_id);
    } else {
        const auto credentials = percent_encoded(idp.client_id) + ":" + percent_encoded(idp.client_secret);
        request.headers.add("Authorization", "Basic " + base64_encode(as_bytes(credentials)));
    }
    request.body = form_encode(form);
    const auto response = exchange(std::move(request));
    if (response.status != 200)
        throw FlowError("the token exchange at the identity provider " + idp.token_endpoint +
                        " failed: " + oauth_error_text(response));
    // RFC 8693 §2.2.1: the issued token is in access_token, whatever its type (here N_A).
    const auto issued = parse_token_response(response.body);
    return issued.access_token;
}

void Authorizer::authorization_code(const Discovered& d, const std::vector<std::string>& scopes) {
    if (d.authorization_endpoint.empty())
        throw FlowError("the authorization server " + d.issuer + " names no authorization endpoint");
    const auto verifier = random_token(32);  // 43 characters of base64url (RFC 7636 §4.1)
    const auto state = random_token(18);
    const auto scope = join_scopes(scopes);

    std::optional<LoopbackRedirect> listener;
    AuthorizationPrompt prompt;
    prompt.state = state;
    if (options_.redirect_uri.empty()) {
        listener.emplace(io_);
        prompt.redirect_uri = listener->redirect_uri();
    } else {
        prompt.redirect_uri = options_.redirect_uri;
    }
    std::vector<std::pair<std::string, std::string>> params{{"response_type", "code"},
                                                            {"client_id", state_.client_id},
                                                            {"redirect_uri", prompt.redirect_uri},
                                                            {"code_challenge", pkce_challenge(verifier)},
                                                            {"code_challenge_method", "S256"},
                                                            {"state", state}};
    if (!scope.empty()) params.emplace_back("scope", scope);
    if (d.resource) params.emplace_back("resource", d.resource->resource);
    // OpenID Connect Core §11: offline access is asked for with prompt=consent.
    if (contains(scopes, "offline_access")) params.emplace_back("prompt", "consent");
    prompt.url = with_query(d.authorization_endpoint, params);

    if (options_.open_url) {
        options_.open_url(prompt);
    } else {
        std::cerr << "To authorize this client with " << d.issuer << ", open:\n  " << prompt.url << "\n" << std::flush;
    }
    const auto redirect = listener ? listener->wait(state, options_.redirect_timeout, stop_.get_token())
                                   : options_.wait_for_redirect(prompt);
    const auto answer = query_parameters(redirect);
    if (auto it = answer.find("error"); it != answer.end()) {
        auto description = answer.find("error_description");
        throw FlowError("the authorization server refused: " + printable(it->second) +
                        (description != answer.end() ? ": " + printable(description->second) : std::string()));
    }
    if (auto it = answer.find("state"); it == answer.end() || it->second != state)
        throw FlowError("the authorization response's state is not the request's");
    // RFC 9207 §2.4: a present iss equals the issuer, compared as strings; an advertised one is required.
    const auto iss = answer.find("iss");
    if (iss != answer.end() && iss->second != d.issuer)
        throw FlowError("the authorization response comes from the issuer " + printable(iss->second) + ", not " +
                        d.issuer);
    if (iss == answer.end() && d.server && d.server->authorization_response_iss_parameter_supported)
        throw FlowError("the authorization response has no iss, which " + d.issuer + " says it sends");
    const auto code = answer.find("code");
    if (code == answer.end() || code->second.empty()) throw FlowError("the authorization response has no code");

    std::vector<std::pair<std::string, std::string>> form{{"grant_type", "authorization_code"},
                                                          {"code", code->second},
                                                          {"redirect_uri", prompt.redirect_uri},
                                                          {"code_verifier", verifier}};
    if (d.resource) form.emplace_back("resource", d.resource->resource);
    request_token(d, form, "authorization_code", scope);
}

void Authorizer::set_token(StoredAuthorization next) {
    {
        std::lock_guard lock(mutex_);
        state_ = std::move(next);
    }
    save();
}

void Authorizer::save() {
    try {
        options_.store->save(resource_url_, state_);
    } catch (const std::exception& e) {
        log().warn("client: the token store could not save the authorization of {}: {}", resource_url_, e.what());
    }
}

}  // namespace mcp::detail
