#include "run/options.hpp"

#include "transport/http/client_address.hpp"
#include "util/duration.hpp"
#include "util/handler_pool.hpp"

#include <CLI/CLI.hpp>

#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace mcp::detail {

namespace {

// Validates a duration option such as "20s"; the message names the accepted forms.
const CLI::Validator kDuration(
    [](std::string& value) -> std::string {
        return parse_duration(value) ? std::string() : "expected a duration such as 250ms, 20s, 5m or 1h";
    },
    "DURATION");

// "HOST:PORT", "[::1]:PORT" or ":PORT" (loopback).
bool parse_listen_address(const std::string& text, HttpOptions& http) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return false;
    std::string host = text.substr(0, colon);
    if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(text.data() + colon + 1, text.data() + text.size(), port);
    if (ec != std::errc() || end != text.data() + text.size() || port > 65535) return false;
    http.host = host.empty() ? "127.0.0.1" : host;
    http.port = static_cast<std::uint16_t>(port);
    return true;
}

const CLI::Validator kListenAddress(
    [](std::string& value) -> std::string {
        HttpOptions probe;
        return parse_listen_address(value, probe) ? std::string() : "expected HOST:PORT, e.g. 127.0.0.1:8080";
    },
    "HOST:PORT");

// A duration flag bound to its field. The callback runs only for a given value (the check has
// passed by then); --help shows the field's code value in the same "20s" form.
CLI::Option* add_duration(CLI::App& group, const std::string& flag, std::chrono::milliseconds& field,
                          const std::string& description) {
    return group
        .add_option_function<std::string>(
            flag, [&field](const std::string& text) { field = *parse_duration(text); }, description)
        ->check(kDuration)
        ->default_str(format_duration(field));
}

// CLI11 heads each option group "[Option Group: X]" with a nested "Options:" line; this prints
// "X:" and the options, laid out like the ungrouped ones.
class GroupedHelp : public CLI::Formatter {
public:
    std::string make_expanded(const CLI::App* sub) const override {
        if (!sub->get_name().empty()) return CLI::Formatter::make_expanded(sub);
        // Each group carries a copy of the app's help flag: leave it to the top section.
        return make_group(sub->get_group(), false, sub->get_options([sub](const CLI::Option* opt) {
            return opt->nonpositional() && opt != sub->get_help_ptr() && opt != sub->get_help_all_ptr();
        }));
    }
};

void add_transport(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("Transport");
    HttpOptions& http = options.http;
    auto* stdio =
        group.add_flag("--stdio")->description("Serve newline-delimited JSON-RPC on stdin/stdout (the default)");
    group
        .add_option_function<std::string>(
            "--http",
            [&options](const std::string& address) {
                parse_listen_address(address, options.http);
                options.serve_http = true;
            },
            "Serve Streamable HTTP on HOST:PORT instead of stdio (both protocol eras)")
        ->check(kListenAddress)
        ->excludes(stdio);
    group.add_option("--endpoint", http.endpoint, "HTTP path of the MCP endpoint");
    group
        .add_option("--allowed-hosts", http.allowed_hosts,
                    "Host and Origin names accepted over HTTP, any port (DNS-rebinding protection)")
        ->delimiter(',');
    group.add_option("--io-threads", http.io_threads, "Threads serving HTTP connections")->check(CLI::Range(1, 256));
}

void add_http_limits(CLI::App& app, HttpOptions& http) {
    auto& group = *app.add_option_group("HTTP limits and timeouts");
    group.add_option("--max-connections", http.max_connections, "Open HTTP connections; more are closed at once")
        ->check(CLI::Range(1, 1000000));
    group.add_option("--max-header-bytes", http.max_header_bytes, "Largest HTTP request head; larger gets 431")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t{1024}, kMaxHeaderBytes));
    add_duration(group, "--header-timeout", http.header_timeout, "Time a new connection has to send a request head");
    add_duration(group, "--body-timeout", http.body_timeout, "Time a client has to send a request body");
    add_duration(group, "--idle-timeout", http.idle_timeout, "Keep-alive connection idle time before it is closed");
    add_duration(group, "--write-timeout", http.write_timeout, "A client that reads nothing for this long is dropped");
    group
        .add_option("--max-streams-per-session", http.max_streams_per_session,
                    "GET connections (listens and resumes) a session holds open at once")
        ->check(CLI::Range(1, 1000));
    add_duration(group, "--shutdown-grace", http.shutdown_grace, "Time calls in flight get to finish on SIGTERM");
}

// The bounds kept per client, and who a client is (docs/adr/0024-fair-limits.md).
void add_clients(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("Clients (who one is, what one may hold)");
    HttpOptions& http = options.http;
    ClientQuotas& quotas = options.server.clients;
    group
        .add_option("--trusted-proxies", http.trusted_proxies,
                    "Proxies (CIDR blocks) whose forwarding header and PROXY protocol header name the client; "
                    "default none: a client is its connection's address")
        ->delimiter(',')
        ->check(CLI::Validator(
            [](std::string& block) -> std::string {
                return Cidr::parse(block) ? "" : "expected an address or a CIDR block such as 10.0.0.0/8";
            },
            "CIDR"));
    group
        .add_option("--forwarded-header", http.forwarded_header,
                    "The header the trusted proxies write: x-forwarded-for, or forwarded (RFC 7239)")
        ->check(CLI::IsMember({"x-forwarded-for", "forwarded"}));
    group.add_option("--ipv6-prefix", http.ipv6_prefix, "IPv6 clients are counted by this prefix of their address")
        ->check(CLI::Range(1, 128));
    group
        .add_option("--max-connections-per-client", http.max_connections_per_client,
                    "HTTP connections of one client (trusted proxies not counted); more are closed at once")
        ->check(CLI::Range(1, 1000000));
    group
        .add_option("--max-sessions-per-client", quotas.sessions,
                    "2025-era sessions of one client, across the nodes sharing a store; initialize beyond gets 429")
        ->check(CLI::Range(1, 10000000));
    add_duration(group, "--half-open-timeout", options.server.sessions.half_open_timeout,
                 "A 2025-era session that sends nothing after initialize is ended this long after it was made");
    group
        .add_option("--max-get-streams-per-client", http.max_get_streams_per_client,
                    "2025-era GET streams of all of one client's sessions; more get 429")
        ->check(CLI::Range(1, 1000000));
    group
        .add_option("--max-listen-streams-per-client", quotas.listen_streams,
                    "subscriptions/listen streams of one client; more get 429")
        ->check(CLI::Range(1, 1000000));
    group
        .add_option("--max-parked-calls-per-client", quotas.parked_calls,
                    "2025-era parked calls of one client; more get 429")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
    group
        .add_option("--max-calls-per-client", quotas.calls,
                    "Calls of user code of one client queued or running at once; more get 429")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
}

void add_stdio(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("stdio");
    group.add_option("--stdio-subject", options.stdio_subject,
                     "The principal a stdio server serves (stdio carries no token); unset: anonymous");
    group.add_option("--stdio-scopes", options.stdio_scopes, "OAuth scopes granted to --stdio-subject")->delimiter(',');
}

void add_tls_and_cors(CLI::App& app, HttpOptions& http) {
    auto& group = *app.add_option_group("HTTPS and browsers");
    group
        .add_option("--public-url", http.public_url,
                    "The endpoint's URL as clients reach it (the OAuth resource URI); default: the listening address")
        ->check(CLI::Validator(
            [](std::string& url) -> std::string {
                return url.starts_with("http://") || url.starts_with("https://") ? "" : "expected an http(s) URL";
            },
            "URL"));
    group.add_option("--tls-cert", http.tls_cert_file, "Serve HTTPS with this PEM certificate chain")
        ->check(CLI::ExistingFile);
    group.add_option("--tls-key", http.tls_key_file, "The PEM private key of --tls-cert")->check(CLI::ExistingFile);
    group
        .add_option("--tls-client-ca", http.tls_client_ca_file,
                    "Require client certificates signed by these PEM CAs (mutual TLS)")
        ->check(CLI::ExistingFile);
    group
        .add_option(
            "--cors-origins", http.cors_origins,
            "Origins (https://app.example.com) whose pages may call the endpoint (CORS); also pass the Origin check")
        ->delimiter(',');
}

void add_auth(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("Authorization (OAuth 2.1 resource server, HTTP)");
    AuthOptions& auth = options.http.auth;
    group.add_option("--auth-issuer", auth.issuer,
                     "Require bearer tokens from this authorization server (its metadata and JWKS are discovered)");
    group.add_option("--auth-audience", auth.audience, "The aud tokens must name; default: the resource URI");
    group.add_option("--auth-jwks-uri", auth.jwks_uri, "The issuer's JWKS, skipping discovery");
    group.add_option("--auth-introspection-url", auth.introspection_url,
                     "Introspect opaque tokens here (RFC 7662); needs --auth-client-credentials-file");
    group
        .add_option("--auth-client-credentials-file", auth.client_credentials_file,
                    "A file whose first line is client_id:client_secret, for introspection")
        ->check(CLI::ExistingFile);
    group.add_option("--auth-scopes", auth.scopes, "OAuth scopes every request needs")->delimiter(',');
    group.add_option("--auth-ca-file", auth.ca_file, "Trust these PEM CAs for the issuer instead of the system's")
        ->check(CLI::ExistingFile);
    add_duration(group, "--auth-leeway", auth.leeway, "Clock skew allowed on a token's exp, nbf and iat");
    group.add_option("--auth-resource-name", auth.resource_name, "resource_name of the protected resource metadata");
    group.add_option("--auth-resource-documentation", auth.resource_documentation,
                     "resource_documentation of the protected resource metadata");
    group
        .add_option_function<std::string>(
            "--auth-list-unauthorized",
            [&options](const std::string& mode) { options.server.list_unauthorized = mode == "show"; },
            "Whether lists show a principal the tools, prompts and resources it lacks scopes for: hide or show")
        ->check(CLI::IsMember({"hide", "show"}))
        ->default_str("hide");
    group
        .add_option("--rate-limit", options.rate_limit,
                    "Requests per second per client (its principal, else its address), e.g. 50/s; more get 429")
        ->check(CLI::Validator(
            [](std::string& value) -> std::string { return parse_rate(value) ? "" : "expected a rate such as 50/s"; },
            "N/s"));
}

void add_sessions(CLI::App& app, SessionOptions& sessions) {
    auto& group = *app.add_option_group("Sessions (2025-era HTTP)");
    group
        .add_option("--max-sessions", sessions.max_sessions,
                    "2025-era HTTP sessions on this node; beyond, a session of a client above its share makes room, "
                    "else initialize gets 503")
        ->check(CLI::Range(1, 10000000));
    add_duration(group, "--session-timeout", sessions.idle_timeout, "A 2025-era session idle this long is ended");
}

void add_client_requests(CLI::App& app, ClientRequestOptions& requests) {
    auto& group = *app.add_option_group("Requests to the client");
    add_duration(group, "--elicitation-timeout", requests.elicitation_timeout,
                 "How long a 2025-era handler waits for a form answer");
    add_duration(group, "--sampling-timeout", requests.sampling_timeout,
                 "How long a 2025-era handler waits for a sampling answer");
    add_duration(group, "--roots-timeout", requests.roots_timeout, "How long a 2025-era handler waits for roots/list");
    add_duration(group, "--request-state-ttl", requests.request_state_ttl, "How long a 2026 requestState stays valid");
    group
        .add_option("--max-parked-calls", requests.max_parked_calls,
                    "2025-era calls of replayable handlers waiting for their clients at once; beyond, one of a "
                    "client above its share makes room, else 503")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
}

void add_tasks(CLI::App& app, TaskOptions& tasks) {
    auto& group = *app.add_option_group("Tasks");
    add_duration(group, "--task-ttl", tasks.ttl, "How long a task and its result stay readable, from its creation");
    add_duration(group, "--task-poll-interval", tasks.poll_interval, "How often clients are told to poll a task");
    group
        .add_option("--max-tasks", tasks.max_per_client,
                    "Tasks one client (its principal, else its address) may hold within their ttl; more get 429")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}));
}

void add_store_and_keys(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("Store and keys");
    group.add_option("--store", options.server.store,
                     "Where 2025-era HTTP sessions, SSE journals, pending client answers and tasks live: memory, or "
                     "redis://[[user]:password@]host[:port][/db] shared by several nodes, or "
                     "redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/master-name[/db]"
                     "[?sentinel-password=...] to follow a master through Sentinel; rediss:// and rediss-sentinel:// "
                     "over TLS, with ?tls-ca-file=...&tls-cert-file=...&tls-key-file=...&tls-server-name=...");
    group
        .add_option("--secret-file", options.secret_file,
                    "Sealing keys: one base64 32-byte key, or lines kid:base64 (first active); env MCP_SECRET holds "
                    "the same text")
        ->check(CLI::ExistingFile);
}

void add_caching(CLI::App& app, CacheOptions& cache) {
    auto& group = *app.add_option_group("Caching");
    add_duration(group, "--cache-ttl", cache.list_ttl, "ttlMs on 2026-07-28 list and discover results");
    add_duration(group, "--read-cache-ttl", cache.read_ttl, "ttlMs on 2026-07-28 resources/read results");
    group
        .add_option_function<std::string>(
            "--cache-scope", [&cache](const std::string& scope) { cache.public_scope = scope == "public"; },
            "cacheScope on 2026-07-28 cacheable results: private or public")
        ->check(CLI::IsMember({"private", "public"}))
        ->default_str(cache.public_scope ? "public" : "private");
}

void add_logging(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("Logging");
    group
        .add_option("--log-level", options.log_level,
                    "Server diagnostics on stderr: trace, debug, info, warn, error, off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    group.add_option("--log-format", options.log_format, "Diagnostics format: text or json (one object per line)")
        ->check(CLI::IsMember({"text", "json"}));
    LogLevel& client_level = options.server.default_client_log_level;
    group
        .add_option_function<std::string>(
            "--client-log-level", [&client_level](const std::string& level) { client_level = *parse_log_level(level); },
            "Lowest notifications/message level sent to a 2025-era client before it calls logging/setLevel")
        ->check(CLI::IsMember({"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}))
        ->default_str(std::string(to_string(client_level)));
}

void add_operations(CLI::App& app, RunOptions& options) {
    auto& group = *app.add_option_group("Operations");
    HttpOptions& http = options.http;
    group
        .add_option_function<std::string>(
            "--metrics",
            [&http](const std::string& address) {
                HttpOptions probe;
                parse_listen_address(address, probe);
                http.metrics_host = probe.host;
                http.metrics_port = probe.port;
            },
            "Serve Prometheus /metrics, /healthz and /readyz on HOST:PORT (HTTP only; off by default)")
        ->check(kListenAddress);
    add_duration(group, "--drain-delay", http.drain_delay,
                 "On SIGTERM, /readyz fails at once and the endpoint serves this long before it stops accepting");
    group.add_option("--audit-log", options.server.audit.path,
                     "Write one JSON line per tool call, prompt get and resource read to FILE, or stderr");
    group.add_flag("--audit-arguments", options.server.audit.arguments,
                   "Put the call's arguments in the audit log too");
    add_duration(group, "--memory-release-interval", options.server.memory_release.interval,
                 "How often to look whether memory freed by a drop (sessions and parked calls ended) can go back "
                 "to the system; 0s: never");
}

// A validator from a parser that throws std::invalid_argument.
template <class Parse>
CLI::Validator parsed_by(Parse parse, const std::string& name) {
    return CLI::Validator(
        [parse](std::string& value) -> std::string {
            try {
                parse(value);
                return {};
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
        },
        name);
}

// OpenTelemetry traces over OTLP/HTTP (docs/adr/0030-tracing.md). What these leave unset comes
// from the standard OTEL_* variables (finish_options).
void add_tracing(CLI::App& app, telemetry::TracingFlags& tracing) {
    auto& group = *app.add_option_group("Tracing (OpenTelemetry)");
    group
        .add_option("--otlp-endpoint", tracing.endpoint,
                    "Export spans to this OTLP/HTTP traces URL (a URL without a path gets /v1/traces); off by "
                    "default. Env OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT")
        ->check(parsed_by(telemetry::check_endpoint, "URL"));
    group
        .add_option("--otlp-protocol", tracing.protocol,
                    "http/protobuf (the default) or http/json. Env OTEL_EXPORTER_OTLP_PROTOCOL")
        ->check(parsed_by(telemetry::parse_protocol, "PROTOCOL"));
    group
        .add_option("--otlp-headers", tracing.headers,
                    "Headers sent with every export: key=value,key=value (values percent-encoded). Env "
                    "OTEL_EXPORTER_OTLP_HEADERS")
        ->check(parsed_by(telemetry::parse_key_values, "KEY=VALUE,..."));
    group.add_option("--otlp-ca-file", tracing.ca_file, "PEM CA certificates for an https:// collector")
        ->check(CLI::ExistingFile);
    group.add_option("--otlp-client-cert", tracing.client_cert_file, "PEM client certificate for the collector")
        ->check(CLI::ExistingFile);
    group.add_option("--otlp-client-key", tracing.client_key_file, "PEM key of --otlp-client-cert")
        ->check(CLI::ExistingFile);
    group.add_option("--otel-service-name", tracing.service_name,
                     "The resource's service.name; default the server's name. Env OTEL_SERVICE_NAME");
    group
        .add_option("--otel-resource-attributes", tracing.resource_attributes,
                    "More resource attributes: key=value,key=value. Env OTEL_RESOURCE_ATTRIBUTES")
        ->check(parsed_by(telemetry::parse_key_values, "KEY=VALUE,..."));
    group
        .add_option_function<double>(
            "--otel-sampling-ratio", [&tracing](double ratio) { tracing.sampling_ratio = ratio; },
            "Parent-based sampling: a request with a traceparent follows its sampled flag, one without "
            "is sampled at this ratio (0 to 1); default 1. Env OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG")
        ->check(CLI::Range(0.0, 1.0));
    group
        .add_option_function<std::size_t>(
            "--otel-stream-span-events", [&tracing](std::size_t events) { tracing.stream_span_events = events; },
            "A 2025 GET stream's span ends, and a linked one begins, after this many events (or 5 minutes); "
            "default 1000")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
}

void add_limits(CLI::App& app, ServerOptions& server) {
    auto& group = *app.add_option_group("Limits");
    group.add_option("--page-size", server.page_size, "Items per page of tools/list, prompts/list, resources/list")
        ->check(CLI::Range(1, 100000));
    group
        .add_option("--max-message-bytes", server.limits.max_message_bytes,
                    "Largest JSON-RPC message accepted (a size: 4194304, 4MiB, 512KiB)")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t{64}, std::size_t{1} << 32));
    group.add_option("--max-json-depth", server.limits.max_depth, "Deepest nesting of arrays and objects accepted")
        ->check(CLI::Range(2, 10000));
    group
        .add_option_function<std::string>(
            "--output-validation", [&server](const std::string& mode) { server.validate_tool_output = mode == "on"; },
            "Check tools' structured results against their outputSchema: on, or off to save the check's cost")
        ->check(CLI::IsMember({"on", "off"}))
        ->default_str(server.validate_tool_output ? "on" : "off");
    group
        .add_option("--max-listen-streams", server.max_listen_streams,
                    "Open subscriptions/listen streams in total; beyond, one of a client above its share makes room, "
                    "else 503")
        ->check(CLI::Range(1, 1000000));
    group
        .add_option("--max-subscriptions", server.max_subscriptions,
                    "Resource subscriptions per session or listen stream")
        ->check(CLI::Range(1, 1000000));
}

void add_handler_pool(CLI::App& app, ExecutionOptions& execution) {
    auto& group = *app.add_option_group("Handler pool");
    group
        .add_option("--handler-threads", execution.core_threads,
                    "Handler threads kept ready (0: one per CPU, at least 2)")
        ->check(CLI::Range(0, 4096));
    group.add_option("--max-handler-threads", execution.max_threads, "Most handler threads while handlers block")
        ->check(CLI::Range(1, 100000));
    group
        .add_option("--handler-queue", execution.queue_capacity,
                    "Calls that may wait for a handler thread; more are refused")
        ->check(CLI::Range(1, 10000000));
    add_duration(group, "--handler-grow-after", execution.grow_after, "A call waiting this long for a thread adds one");
    add_duration(group, "--handler-idle-timeout", execution.idle_timeout,
                 "Extra handler threads exit after this idle time");
    group.add_option("--handler-stack-size", execution.stack_size, "Stack size of each handler thread")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t{64} * 1024, std::size_t{1} << 30));
}

// Flags that take no value (--stdio, each group's copy of --help) get no variable.
void derive_env_names(CLI::App& app) {
    for (CLI::App* group : app.get_subcommands([](CLI::App* sub) { return sub->get_name().empty(); })) {
        for (CLI::Option* opt : group->get_options()) {
            if (opt->get_expected_min() != 0) opt->envname(env_name("--" + opt->get_lnames().front()));
        }
    }
}

}  // namespace

std::optional<double> parse_rate(std::string_view text) {
    if (text.ends_with("/s")) text.remove_suffix(2);
    double rate = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), rate);
    if (ec != std::errc() || end != text.data() + text.size() || !(rate > 0) || rate > 1e9) return std::nullopt;
    return rate;
}

std::string env_name(const std::string& long_flag) {
    std::string name = "MCP_";
    for (char c : std::string_view(long_flag).substr(long_flag.find_first_not_of('-'))) {
        name += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return name;
}

void add_options(CLI::App& app, RunOptions& options) {
    app.formatter(std::make_shared<GroupedHelp>());
    // CLI11 reads the config file before any environment variable, so MCP_CONFIG becomes the
    // option's default here; naming a file that does not exist is then an error too.
    const char* config_from_env = std::getenv("MCP_CONFIG");
    app.set_config("--config", config_from_env != nullptr ? config_from_env : "",
                   "Read options from this INI or TOML file (keys are the long option names); env MCP_CONFIG",
                   config_from_env != nullptr && *config_from_env != '\0');
    // Before the groups: each copies the app's option defaults when it is created.
    app.option_defaults()->always_capture_default();

    add_transport(app, options);
    add_stdio(app, options);
    add_http_limits(app, options.http);
    add_clients(app, options);
    add_tls_and_cors(app, options.http);
    add_auth(app, options);
    add_sessions(app, options.server.sessions);
    add_client_requests(app, options.server.client_requests);
    add_tasks(app, options.server.tasks);
    add_store_and_keys(app, options);
    add_caching(app, options.server.cache);
    add_logging(app, options);
    add_operations(app, options);
    add_tracing(app, options.tracing);
    add_limits(app, options.server);
    add_handler_pool(app, options.server.execution);
    derive_env_names(app);
}

void finish_options(RunOptions& options) {
    if (!options.secret_file.empty()) {
        options.server.keys = KeyRing::from_file(options.secret_file);
    } else if (const char* secret = std::getenv("MCP_SECRET"); secret != nullptr && *secret != '\0') {
        options.server.keys = KeyRing::parse(secret);
    }
    if (!options.stdio_subject.empty()) {
        auto principal = std::make_shared<Principal>();
        principal->subject = options.stdio_subject;
        principal->scopes = options.stdio_scopes;
        options.stdio.principal = std::move(principal);
    } else if (!options.stdio_scopes.empty()) {
        throw std::invalid_argument("--stdio-scopes needs --stdio-subject");
    }
    if (options.http.tls_cert_file.empty() != options.http.tls_key_file.empty()) {
        throw std::invalid_argument("--tls-cert and --tls-key go together");
    }
    if (!options.http.tls_client_ca_file.empty() && options.http.tls_cert_file.empty()) {
        throw std::invalid_argument("--tls-client-ca needs --tls-cert");
    }
    options.server.tracing = telemetry::resolve_tracing(options.tracing, telemetry::process_environment());
    if (options.http.metrics_port != 0 && !options.serve_http) {
        throw std::invalid_argument("--metrics needs --http");
    }
    const ExecutionOptions& execution = options.server.execution;
    if (execution.max_threads < core_threads_of(execution)) {
        throw std::invalid_argument("--max-handler-threads (" + std::to_string(execution.max_threads) +
                                    ") must be at least the handler threads kept ready (" +
                                    std::to_string(core_threads_of(execution)) +
                                    ", --handler-threads; 0 means one per CPU, at least 2)");
    }
}

}  // namespace mcp::detail
