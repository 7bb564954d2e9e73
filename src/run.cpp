#include <mcp/run.hpp>

#include <mcp/server/server.hpp>
#include <mcp/transport/stdio.hpp>

#include "util/duration.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
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

struct Settings {
    bool stdio = true;
    std::string log_level = "info";
    std::string log_format = "text";
    std::string client_log_level;
    std::string grow_after;
    std::string idle_timeout;
};

}  // namespace

int run(Server& server, int argc, char** argv) {
    ServerOptions options = server.options();
    Settings s;
    s.client_log_level = std::string(to_string(options.default_client_log_level));
    s.grow_after = detail::format_duration(options.execution.grow_after);
    s.idle_timeout = detail::format_duration(options.execution.idle_timeout);

    CLI::App app{server.info().title.empty() ? server.info().name : server.info().title, server.info().name};
    app.set_version_flag("--version", server.info().version);
    // CLI11 reads the config file before any environment variable, so MCP_CONFIG becomes the
    // option's default here; naming a file that does not exist is then an error too.
    const char* config_from_env = std::getenv("MCP_CONFIG");
    app.set_config("--config", config_from_env != nullptr ? config_from_env : "",
                   "Read options from this INI or TOML file (keys are the long option names); env MCP_CONFIG",
                   config_from_env != nullptr && *config_from_env != '\0');
    app.option_defaults()->always_capture_default();

    app.add_flag("--stdio", s.stdio, "Serve newline-delimited JSON-RPC on stdin/stdout (the default)");

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
    app.add_option("--handler-idle-timeout", s.idle_timeout, "Extra handler threads exit after this idle time")
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
        options.execution.idle_timeout = duration_of(s.idle_timeout);
        if (options.execution.max_threads < options.execution.core_threads) {
            throw std::invalid_argument("--max-handler-threads must be at least --handler-threads");
        }
        server.configure(options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", server.info().name.c_str(), e.what());
        return 2;
    }
    detail::configure_logging(s.log_level, s.log_format);

    detail::log().info("{} {} serving MCP on stdio", server.info().name, server.info().version);
    return serve_stdio(server);
}

}  // namespace mcp
