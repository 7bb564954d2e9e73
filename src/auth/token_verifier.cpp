#include "auth/token_verifier.hpp"

#include "auth/introspection.hpp"
#include "auth/token_cache.hpp"
#include "net/http_client.hpp"
#include "net/http_error.hpp"
#include "net/url.hpp"
#include "util/base64.hpp"
#include "util/bounded_count.hpp"
#include "util/log.hpp"
#include "util/metrics.hpp"
#include "util/percent_encoding.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <thread>

namespace mcp::detail {

namespace asio = boost::asio;
using Clock = std::chrono::system_clock;
using Steady = std::chrono::steady_clock;

namespace {

// The authorization server's key set fetched (at start, when it expires, on an unknown kid).
void count_jwks_fetch(std::string_view outcome) {
    static auto& family = metrics::registry().family("mcp_auth_jwks_fetches_total",
                                                     "Fetches of the authorization server's JWKS, by outcome",
                                                     metrics::Type::counter, {"outcome"});
    static auto& ok = family.counter({"ok"});
    static auto& failed = family.counter({"failed"});
    if (metrics::enabled()) (outcome == "ok" ? ok : failed).add();
}
// After a failed fetch, requests are answered 503 for this long before the next attempt: a down
// authorization server is not asked once per request.
constexpr std::chrono::seconds kRetryAfterFailure{1};

// RFC 6750 §2.1 b64token: the characters a bearer token may have.
bool is_b64token(std::string_view token) {
    if (token.empty()) return false;
    const auto end = token.find_last_not_of('=');
    if (end == std::string_view::npos) return false;
    return std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(end) + 1, [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
               c == '_' || c == '~' || c == '+' || c == '/';
    });
}

// The authorization server could not be reached, or answered with something unusable.
class FetchFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Its documents are small: metadata, a key set, an introspection answer.
net::HttpClientOptions fetch_options(const VerifierSettings& settings) {
    net::HttpClientOptions options;
    options.tls.ca_file = settings.ca_file;
    options.connect_timeout = settings.fetch_timeout;
    options.request_timeout = settings.fetch_timeout;
    options.max_header_bytes = 16 * 1024;
    options.max_body_bytes = 1024 * 1024;
    // Introspections are bounded by max_introspections already: they need not queue for a connection.
    options.max_connections_per_origin = std::max<std::size_t>(settings.max_introspections, 1);
    return options;
}

net::HttpRequest get_json(const std::string& url) {
    net::HttpRequest request;
    request.url = url;
    request.headers.add("Accept", "application/json");
    return request;
}

boost::json::value parse_json(const net::HttpResponse& response, const std::string& what) {
    if (response.status != 200) throw FetchFailed(what + " answered HTTP " + std::to_string(response.status));
    boost::system::error_code ec;
    auto value = boost::json::parse(response.body, ec);
    if (ec || !value.is_object()) throw FetchFailed(what + " is not a JSON object");
    return value;
}

// A JSON document fetched, and its Cache-Control.
struct Fetched {
    boost::json::value document;
    std::string cache_control;
};

// Fetches a JSON document (`label` names it in errors), and records the request in `fetches`, as
// `what`, when given.
asio::awaitable<Fetched> fetch_json(net::HttpClient& client, net::HttpRequest request, const std::string& label,
                                    std::string_view what, FetchRecords* fetches) {
    FetchRecord record;
    if (fetches != nullptr) record = {std::string(what), request.method, request.url, 0, {}, Clock::now(), {}};
    std::optional<std::string> failure;
    Fetched fetched;
    try {
        const auto response = co_await client.fetch(std::move(request));
        record.status = response.status;
        fetched.document = parse_json(response, label);
        fetched.cache_control = response.headers.get("Cache-Control").value_or("");
    } catch (const net::HttpError& e) {
        failure = e.what();
    } catch (const FetchFailed& e) {
        failure = e.what();
    }
    if (fetches != nullptr) {
        record.failure = failure.value_or("");
        record.end = Clock::now();
        fetches->push_back(std::move(record));
    }
    if (failure) throw FetchFailed(*failure);
    co_return fetched;
}

std::string string_member(const boost::json::value& document, std::string_view name) {
    const auto* v = document.as_object().if_contains(name);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

// RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path.
std::string metadata_url(const std::string& issuer, std::string_view well_known, bool appended) {
    const auto scheme_end = issuer.find("://");
    const auto path_start = issuer.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 3);
    std::string base = path_start == std::string::npos ? issuer : issuer.substr(0, path_start);
    std::string path = path_start == std::string::npos ? "" : issuer.substr(path_start);
    if (!path.empty() && path.back() == '/') path.pop_back();
    if (appended) return base + path + "/.well-known/" + std::string(well_known);  // OpenID Connect Discovery
    return base + "/.well-known/" + std::string(well_known) + path;
}

}  // namespace

std::chrono::seconds keys_max_age(std::string_view cache_control) {
    constexpr std::chrono::seconds kDefault{3600};
    constexpr std::chrono::seconds kMin{60};
    constexpr std::chrono::seconds kMax{24 * 3600};
    if (cache_control.find("no-store") != std::string_view::npos ||
        cache_control.find("no-cache") != std::string_view::npos) {
        return kMin;
    }
    const auto at = cache_control.find("max-age=");
    if (at == std::string_view::npos) return kDefault;
    long long seconds = 0;  // unparsable or out of range: 0, so the minimum
    const auto digits = cache_control.substr(at + 8);
    std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
    return std::clamp(std::chrono::seconds(seconds), kMin, kMax);
}

struct TokenVerifier::Impl : std::enable_shared_from_this<Impl> {
    explicit Impl(VerifierSettings s)
        : settings(std::move(s)),
          guard(io.get_executor()),
          fetcher(io, fetch_options(settings)),
          cache(settings.cache_entries) {
        jwks_uri = settings.jwks_uri;
        introspection_url = settings.introspection_url;
        discovered.store(settings.issuer.empty() || !settings.jwks_uri.empty());
        jwt_enabled.store(!jwks_uri.empty());
    }

    VerifierSettings settings;
    asio::io_context io{1};
    asio::executor_work_guard<asio::io_context::executor_type> guard;
    std::thread thread;
    net::HttpClient fetcher;
    TokenCache cache;

    // Read from any thread.
    std::atomic<std::shared_ptr<const std::vector<VerificationKey>>> keys;
    std::atomic<Steady::rep> keys_due{0};  // when the keys' max-age runs out
    std::atomic<bool> background_refresh{false};
    std::atomic<bool> discovered{false};
    std::atomic<bool> jwt_enabled{false};
    BoundedCount introspections;  // in flight

    // The verifier's thread only.
    std::string jwks_uri;
    std::string introspection_url;
    Steady::time_point last_attempt{};
    bool last_attempt_failed = false;
    std::optional<Steady::time_point> last_rotation;  // the last fetch an unknown kid caused
    std::shared_ptr<asio::steady_timer> refreshing;   // set while a refresh runs: others wait on it

    asio::awaitable<void> discover(FetchRecords* fetches) {
        std::string failure;
        for (const auto& url : {metadata_url(settings.issuer, "oauth-authorization-server", false),
                                metadata_url(settings.issuer, "openid-configuration", true)}) {
            try {
                auto request = get_json(url);  // named: GCC 12 frees some temporaries in co_await twice
                const auto metadata =
                    (co_await fetch_json(fetcher, std::move(request), url, "metadata", fetches)).document;
                // RFC 8414 §3.3: metadata for another issuer must not be used.
                if (string_member(metadata, "issuer") != settings.issuer) {
                    throw FetchFailed(url + " describes another issuer");
                }
                jwks_uri = string_member(metadata, "jwks_uri");
                if (introspection_url.empty() && !settings.client_id.empty()) {
                    introspection_url = string_member(metadata, "introspection_endpoint");
                }
                discovered.store(true);
                co_return;
            } catch (const FetchFailed& e) {
                failure = e.what();
            }
        }
        throw FetchFailed("authorization server metadata: " + failure);
    }

    asio::awaitable<void> fetch_keys(FetchRecords* fetches) {
        auto request = get_json(jwks_uri);  // named, as in discover()
        const auto [document, cache_control] =
            co_await fetch_json(fetcher, std::move(request), jwks_uri, "jwks", fetches);
        std::vector<VerificationKey> parsed;
        try {
            parsed = parse_jwks(document);
        } catch (const std::invalid_argument& e) {
            throw FetchFailed(jwks_uri + ": " + e.what());
        }
        log().info("loaded {} signing keys from {}", parsed.size(), jwks_uri);
        keys.store(std::make_shared<const std::vector<VerificationKey>>(std::move(parsed)));
        keys_due.store((Steady::now() + keys_max_age(cache_control)).time_since_epoch().count());
    }

    // Discovery and the JWKS, once at a time: callers arriving meanwhile wait for the one running.
    // `rotation`: a token named a kid the keys lack, which may fetch again only so often. `fetches`:
    // the requests made, when the caller traces them (a caller that waits for another's records none).
    asio::awaitable<void> refresh(bool rotation, std::shared_ptr<FetchRecords> fetches) {
        if (refreshing) {
            auto running = refreshing;
            co_await running->async_wait(asio::as_tuple(asio::use_awaitable));  // cancelled when it ends
            co_return;
        }
        const auto now = Steady::now();
        if (last_attempt_failed && now - last_attempt < kRetryAfterFailure) co_return;
        if (rotation && last_rotation && now - *last_rotation < settings.jwks_refetch_interval) co_return;
        refreshing = std::make_shared<asio::steady_timer>(io, Steady::time_point::max());
        if (rotation) last_rotation = now;
        try {
            if (!discovered) co_await discover(fetches.get());
            jwt_enabled.store(!jwks_uri.empty());
            if (!jwks_uri.empty()) {
                try {
                    co_await fetch_keys(fetches.get());
                    count_jwks_fetch("ok");
                } catch (...) {
                    count_jwks_fetch("failed");
                    throw;
                }
            }
            last_attempt_failed = false;
        } catch (const std::exception& e) {  // FetchFailed, or anything else: the waiters must be released
            last_attempt_failed = true;
            log().warn("token verification: {}", e.what());
        }
        last_attempt = Steady::now();  // a failure's quiet period starts when it is known
        refreshing->cancel();
        refreshing.reset();
    }

    asio::awaitable<BearerVerdict> introspect(std::string token, std::shared_ptr<FetchRecords> fetches) {
        if (introspection_url.empty()) co_return TokenRefusal{"invalid_token", "The token is not a JWT"};
        auto request = get_json(introspection_url);
        request.method = "POST";
        request.headers.add("Content-Type", "application/x-www-form-urlencoded");
        request.body = "token=" + percent_encoded(token) + "&token_type_hint=access_token";
        if (!settings.client_id.empty()) {
            const auto credentials =
                percent_encoded(settings.client_id) + ":" + percent_encoded(settings.client_secret);
            request.headers.add("Authorization", "Basic " + base64_encode(as_bytes(credentials)));
        }
        boost::json::value answer;
        try {
            answer = (co_await fetch_json(fetcher, std::move(request), "token introspection", "introspection",
                                          fetches.get()))
                         .document;
        } catch (const FetchFailed& e) {
            log().warn("token introspection: {}", e.what());
            co_return VerifierUnavailable{"the authorization server cannot be reached"};
        }
        const TokenRules rules{settings.issuer, settings.audiences, settings.leeway};
        auto verdict = introspection_verdict(answer.as_object(), rules, Clock::now());
        if (auto* refusal = std::get_if<TokenRefusal>(&verdict)) co_return *refusal;
        co_return std::get<AcceptedToken>(verdict);
    }

    // refresh() on the verifier's thread; the caller resumes on its own executor. (Coroutines,
    // not coroutine lambdas, are spawned: GCC 12 releases the captures of some of those twice.)
    asio::awaitable<void> refresh_from_caller(bool rotation, std::shared_ptr<FetchRecords> fetches) {
        const auto self = shared_from_this();  // the verifier outlives the wait
        co_await asio::co_spawn(io, refresh(rotation, std::move(fetches)), asio::use_awaitable);
    }

    static asio::awaitable<void> refresh_in_background(std::shared_ptr<Impl> self) {
        co_await self->refresh(false, nullptr);
        self->background_refresh.store(false);
    }

    asio::awaitable<BearerVerdict> verify_jwt(const CompactJws& jws, std::shared_ptr<FetchRecords> fetches) {
        auto current = keys.load();
        if (!current) {
            co_await refresh_from_caller(false, fetches);
            current = keys.load();
            if (!current) co_return VerifierUnavailable{"the authorization server's keys are not loaded"};
        } else if (Steady::now().time_since_epoch().count() >= keys_due.load()) {
            start_background_refresh();  // the keys in hand serve meanwhile
        }
        TokenRules rules{settings.issuer, settings.audiences, settings.leeway};
        auto verdict = validate_jwt(jws, *current, rules, Clock::now());
        if (std::holds_alternative<UnknownKey>(verdict)) {
            co_await refresh_from_caller(true, fetches);
            verdict = validate_jwt(jws, *keys.load(), rules, Clock::now());
        }
        if (std::holds_alternative<UnknownKey>(verdict)) {
            co_return TokenRefusal{"invalid_token", "The token was signed with a key the issuer does not publish"};
        }
        if (auto* refusal = std::get_if<TokenRefusal>(&verdict)) co_return *refusal;
        co_return std::get<AcceptedToken>(verdict);
    }

    void start_background_refresh() {
        if (background_refresh.exchange(true)) return;  // one at a time
        asio::co_spawn(io, refresh_in_background(shared_from_this()), asio::detached);
    }
};

TokenVerifier::TokenVerifier(VerifierSettings settings) {
    if (settings.issuer.empty() && settings.jwks_uri.empty() && settings.introspection_url.empty()) {
        throw std::invalid_argument("token verification needs an issuer, a JWKS URI or an introspection URL");
    }
    for (const auto* url : {&settings.issuer, &settings.jwks_uri, &settings.introspection_url}) {
        if (!url->empty() && !net::parse_url(*url)) throw std::invalid_argument("not an http(s) URL: " + *url);
    }
    if (settings.audiences.empty()) throw std::invalid_argument("token verification needs an audience");
    impl_ = std::make_shared<Impl>(std::move(settings));
}

TokenVerifier::~TokenVerifier() {
    if (!impl_->thread.joinable()) return;
    impl_->io.stop();
    impl_->thread.join();
}

void TokenVerifier::start() {
    auto impl = impl_;
    asio::co_spawn(impl->io, impl->refresh(false, nullptr), asio::detached);  // the thread keeps impl alive
    impl->thread = std::thread([impl] {
        for (;;) {  // a handler that throws is a bug; verification goes on
            try {
                impl->io.run();
                return;
            } catch (const std::exception& e) {
                log().error("token verification failed: {}", e.what());
            }
        }
    });
}

bool TokenVerifier::ready() const {
    return impl_->keys.load() != nullptr || (impl_->discovered.load() && !impl_->jwt_enabled.load());
}

asio::awaitable<BearerVerdict> TokenVerifier::verify(std::string token, std::shared_ptr<FetchRecords> fetches) {
    if (token.size() > max_token_bytes) co_return TokenRefusal{"invalid_token", "The token is too large"};
    if (!is_b64token(token)) co_return TokenRefusal{"invalid_token", "The token is malformed"};
    const auto digest = TokenCache::digest(token);
    if (auto cached = impl_->cache.find(digest, Clock::now())) co_return *cached;

    auto impl = impl_;
    if (!impl->discovered.load()) {
        co_await impl->refresh_from_caller(false, fetches);
        if (!impl->discovered.load()) co_return VerifierUnavailable{"the authorization server cannot be reached"};
    }
    BearerVerdict verdict;
    if (auto jws = impl->jwt_enabled.load() ? parse_compact_jws(token) : std::nullopt) {
        verdict = co_await impl->verify_jwt(*jws, fetches);
    } else {
        // Each distinct opaque token costs a request to the authorization server: a flood of made-up
        // ones must not open connections without bound.
        const auto place = impl->introspections.try_take(impl->settings.max_introspections);
        if (!place) co_return VerifierUnavailable{"too many token introspections in flight"};
        verdict = co_await asio::co_spawn(impl->io, impl->introspect(std::move(token), fetches), asio::use_awaitable);
    }
    if (const auto* accepted = std::get_if<AcceptedToken>(&verdict)) impl->cache.add(digest, *accepted);
    co_return verdict;
}

}  // namespace mcp::detail
