#include <mcp/run.hpp>

#include <mcp/server/server.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/stdio.hpp>

#include "util/duration.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <thread>
#include <cstdlib>
#include <exception>
#include <string>

namespace mcp {

namespace {

// Validates a duration option such as "20s"; the message names the accepted forms.
const CLI::Validator kDuration(
    [](std::string& value) -> std::string {
        return detail::parse_duration(value) ? std::string() : "expected a duration such as 250ms, 20s, 5m or 1h";
    },
    "DURATION");

std::chrono::milliseconds duration_of(const std::string& text) { return *detail::parse_duration(text); }

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

struct Settings {
    bool stdio = true;
    std::string http;
    std::string secret_file;
    std::string cache_scope = "private";
    std::string list_ttl;
    std::string read_ttl;
    std::string header_timeout, body_timeout, idle_timeout, write_timeout, session_timeout, shutdown_grace;
    std::string elicitation_timeout, sampling_timeout, roots_timeout, request_state_ttl;
    std::string log_level = "info";
    std::string log_format = "text";
    std::string client_log_level;
    std::string grow_after;
    std::string handler_idle_timeout;
};

}  // namespace

int run(Server& server, int argc, char** argv) {
    ServerOptions options = server.options();
    Settings s;
    s.client_log_level = std::string(to_string(options.default_client_log_level));
    s.grow_after = detail::format_duration(options.execution.grow_after);
    s.handler_idle_timeout = detail::format_duration(options.execution.idle_timeout);

    CLI::App app{server.info().title.empty() ? server.info().name : server.info().title, server.info().name};
    app.set_version_flag("--version", server.info().version);
    // CLI11 reads the config file before any environment variable, so MCP_CONFIG becomes the
    // option's default here; naming a file that does not exist is then an error too.
    const char* config_from_env = std::getenv("MCP_CONFIG");
    app.set_config("--config", config_from_env != nullptr ? config_from_env : "",
                   "Read options from this INI or TOML file (keys are the long option names); env MCP_CONFIG",
                   config_from_env != nullptr && *config_from_env != '\0');
    app.option_defaults()->always_capture_default();

    HttpOptions http;
    http.io_threads = std::max(1u, std::thread::hardware_concurrency() / 2);
    s.list_ttl = detail::format_duration(options.cache.list_ttl);
    s.read_ttl = detail::format_duration(options.cache.read_ttl);
    s.cache_scope = options.cache.public_scope ? "public" : "private";
    s.header_timeout = detail::format_duration(http.header_timeout);
    s.body_timeout = detail::format_duration(http.body_timeout);
    s.idle_timeout = detail::format_duration(http.idle_timeout);
    s.write_timeout = detail::format_duration(http.write_timeout);
    s.session_timeout = detail::format_duration(options.sessions.idle_timeout);
    s.shutdown_grace = detail::format_duration(http.shutdown_grace);
    s.elicitation_timeout = detail::format_duration(options.client_requests.elicitation_timeout);
    s.sampling_timeout = detail::format_duration(options.client_requests.sampling_timeout);
    s.roots_timeout = detail::format_duration(options.client_requests.roots_timeout);
    s.request_state_ttl = detail::format_duration(options.client_requests.request_state_ttl);

    auto* stdio_flag = app.add_flag("--stdio", s.stdio, "Serve newline-delimited JSON-RPC on stdin/stdout (the default)");
    app.add_option("--http", s.http, "Serve Streamable HTTP on HOST:PORT instead of stdio (both protocol eras)")
        ->envname("MCP_HTTP")
        ->check(kListenAddress)
        ->excludes(stdio_flag);
    app.add_option("--endpoint", http.endpoint, "HTTP path of the MCP endpoint")->envname("MCP_ENDPOINT");
    app.add_option("--allowed-hosts", http.allowed_hosts,
                   "Host and Origin names accepted over HTTP, any port (DNS-rebinding protection)")
        ->envname("MCP_ALLOWED_HOSTS")
        ->delimiter(',');
    app.add_option("--io-threads", http.io_threads, "Threads serving HTTP connections")
        ->envname("MCP_IO_THREADS")
        ->check(CLI::Range(1, 256));
    app.add_option("--max-connections", http.max_connections, "Open HTTP connections; more are closed at once")
        ->envname("MCP_MAX_CONNECTIONS")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--max-header-bytes", http.max_header_bytes, "Largest HTTP request head; larger gets 431")
        ->envname("MCP_MAX_HEADER_BYTES")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t{1024}, kMaxHeaderBytes));
    app.add_option("--header-timeout", s.header_timeout, "Time a new connection has to send a request head")
        ->envname("MCP_HEADER_TIMEOUT")
        ->check(kDuration);
    app.add_option("--body-timeout", s.body_timeout, "Time a client has to send a request body")
        ->envname("MCP_BODY_TIMEOUT")
        ->check(kDuration);
    app.add_option("--idle-timeout", s.idle_timeout, "Keep-alive connection idle time before it is closed")
        ->envname("MCP_IDLE_TIMEOUT")
        ->check(kDuration);
    app.add_option("--write-timeout", s.write_timeout, "A client that reads nothing for this long is dropped")
        ->envname("MCP_WRITE_TIMEOUT")
        ->check(kDuration);
    app.add_option("--max-sessions", options.sessions.max_sessions, "2025-era HTTP sessions; initialize beyond gets 503")
        ->envname("MCP_MAX_SESSIONS")
        ->check(CLI::Range(1, 10000000));
    app.add_option("--session-timeout", s.session_timeout, "A 2025-era session idle this long is ended")
        ->envname("MCP_SESSION_TIMEOUT")
        ->check(kDuration);
    app.add_option("--max-streams-per-session", http.max_streams_per_session, "Open SSE GET streams per session")
        ->envname("MCP_MAX_STREAMS_PER_SESSION")
        ->check(CLI::Range(1, 1000));
    app.add_option("--max-listen-streams", options.max_listen_streams, "Open subscriptions/listen streams in total")
        ->envname("MCP_MAX_LISTEN_STREAMS")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--max-subscriptions", options.max_subscriptions, "Resource subscriptions per session or listen stream")
        ->envname("MCP_MAX_SUBSCRIPTIONS")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--shutdown-grace", s.shutdown_grace, "Time calls in flight get to finish on SIGTERM")
        ->envname("MCP_SHUTDOWN_GRACE")
        ->check(kDuration);
    app.add_option("--elicitation-timeout", s.elicitation_timeout, "How long a 2025-era handler waits for a form answer")
        ->envname("MCP_ELICITATION_TIMEOUT")
        ->check(kDuration);
    app.add_option("--sampling-timeout", s.sampling_timeout, "How long a 2025-era handler waits for a sampling answer")
        ->envname("MCP_SAMPLING_TIMEOUT")
        ->check(kDuration);
    app.add_option("--roots-timeout", s.roots_timeout, "How long a 2025-era handler waits for roots/list")
        ->envname("MCP_ROOTS_TIMEOUT")
        ->check(kDuration);
    app.add_option("--request-state-ttl", s.request_state_ttl, "How long a 2026 requestState stays valid")
        ->envname("MCP_REQUEST_STATE_TTL")
        ->check(kDuration);
    app.add_option("--store", options.store,
                   "Where 2025-era HTTP sessions, SSE journals and pending client answers live: memory, or "
                   "redis://[[user]:password@]host[:port][/db] shared by several nodes")
        ->envname("MCP_STORE");
    app.add_option("--secret-file", s.secret_file,
                   "Sealing keys: one base64 32-byte key, or lines kid:base64 (first active); env MCP_SECRET holds the same text")
        ->envname("MCP_SECRET_FILE")
        ->check(CLI::ExistingFile);
    app.add_option("--cache-ttl", s.list_ttl, "ttlMs on 2026-07-28 list and discover results")
        ->envname("MCP_CACHE_TTL")
        ->check(kDuration);
    app.add_option("--read-cache-ttl", s.read_ttl, "ttlMs on 2026-07-28 resources/read results")
        ->envname("MCP_READ_CACHE_TTL")
        ->check(kDuration);
    app.add_option("--cache-scope", s.cache_scope, "cacheScope on 2026-07-28 cacheable results: private or public")
        ->envname("MCP_CACHE_SCOPE")
        ->check(CLI::IsMember({"private", "public"}));

    app.add_option("--log-level", s.log_level, "Server diagnostics on stderr: trace, debug, info, warn, error, off")
        ->envname("MCP_LOG_LEVEL")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    app.add_option("--log-format", s.log_format, "Diagnostics format: text or json (one object per line)")
        ->envname("MCP_LOG_FORMAT")
        ->check(CLI::IsMember({"text", "json"}));
    app.add_option("--client-log-level", s.client_log_level,
                   "Lowest notifications/message level sent to a 2025-era client before it calls logging/setLevel")
        ->envname("MCP_CLIENT_LOG_LEVEL")
        ->check(CLI::IsMember({"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}));

    app.add_option("--page-size", options.page_size, "Items per page of tools/list, prompts/list, resources/list")
        ->envname("MCP_PAGE_SIZE")
        ->check(CLI::Range(1, 100000));
    app.add_option("--max-message-bytes", options.limits.max_message_bytes,
                   "Largest JSON-RPC message accepted (a size: 4194304, 4MiB, 512KiB)")
        ->envname("MCP_MAX_MESSAGE_BYTES")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t{64}, std::size_t{1} << 32));
    app.add_option("--max-json-depth", options.limits.max_depth, "Deepest nesting of arrays and objects accepted")
        ->envname("MCP_MAX_JSON_DEPTH")
        ->check(CLI::Range(2, 10000));

    app.add_option("--handler-threads", options.execution.core_threads,
                   "Handler threads kept ready (0: one per CPU, at least 2)")
        ->envname("MCP_HANDLER_THREADS")
        ->check(CLI::Range(0, 4096));
    app.add_option("--max-handler-threads", options.execution.max_threads,
                   "Most handler threads while handlers block")
        ->envname("MCP_MAX_HANDLER_THREADS")
        ->check(CLI::Range(1, 100000));
    app.add_option("--handler-queue", options.execution.queue_capacity,
                   "Calls that may wait for a handler thread; more are refused")
        ->envname("MCP_HANDLER_QUEUE")
        ->check(CLI::Range(1, 10000000));
    app.add_option("--handler-grow-after", s.grow_after, "A call waiting this long for a thread adds one")
        ->envname("MCP_HANDLER_GROW_AFTER")
        ->check(kDuration);
    app.add_option("--handler-idle-timeout", s.handler_idle_timeout, "Extra handler threads exit after this idle time")
        ->envname("MCP_HANDLER_IDLE_TIMEOUT")
        ->check(kDuration);
    app.add_option("--handler-stack-size", options.execution.stack_size, "Stack size of each handler thread")
        ->envname("MCP_HANDLER_STACK_SIZE")
        ->transform(CLI::AsSizeValue(false))
        ->check(CLI::Range(std::size_t{64} * 1024, std::size_t{1} << 30));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }

    try {
        options.default_client_log_level = *parse_log_level(s.client_log_level);
        options.execution.grow_after = duration_of(s.grow_after);
        options.execution.idle_timeout = duration_of(s.handler_idle_timeout);
        options.cache.list_ttl = duration_of(s.list_ttl);
        options.cache.read_ttl = duration_of(s.read_ttl);
        options.cache.public_scope = s.cache_scope == "public";
        http.header_timeout = duration_of(s.header_timeout);
        http.body_timeout = duration_of(s.body_timeout);
        http.idle_timeout = duration_of(s.idle_timeout);
        http.write_timeout = duration_of(s.write_timeout);
        options.sessions.idle_timeout = duration_of(s.session_timeout);
        http.shutdown_grace = duration_of(s.shutdown_grace);
        options.client_requests.elicitation_timeout = duration_of(s.elicitation_timeout);
        options.client_requests.sampling_timeout = duration_of(s.sampling_timeout);
        options.client_requests.roots_timeout = duration_of(s.roots_timeout);
        options.client_requests.request_state_ttl = duration_of(s.request_state_ttl);
        if (!s.http.empty()) parse_listen_address(s.http, http);
        if (!s.secret_file.empty()) {
            options.keys = KeyRing::from_file(s.secret_file);
        } else if (const char* secret = std::getenv("MCP_SECRET"); secret != nullptr && *secret != '\0') {
            options.keys = KeyRing::parse(secret);
        }
        if (options.execution.max_threads < options.execution.core_threads) {
            throw std::invalid_argument("--max-handler-threads must be at least --handler-threads");
        }
        server.configure(options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", server.info().name.c_str(), e.what());
        return 2;
    }
    detail::configure_logging(s.log_level, s.log_format);

    int code = 0;
    if (s.http.empty()) {
        detail::log().info("{} {} serving MCP on stdio", server.info().name, server.info().version);
        code = serve_stdio(server);
    } else {
        try {
            code = serve_http(server, http);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: error: %s\n", server.info().name.c_str(), e.what());
            return 1;
        }
    }
    // Handlers that ignore cancellation must not keep the process alive after shutdown.
    if (!server.wait_idle(std::chrono::milliseconds(0))) {
        detail::log().flush();
        std::_Exit(code);
    }
    return code;
}

}  // namespace mcp
