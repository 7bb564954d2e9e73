#pragma once
// mcp::run's runtime options (docs/adr/0007-runtime-options.md), declared in groups that bind
// each flag to the field it sets. Every grouped option that takes a value is also read from
// MCP_<LONG_NAME>: --max-sessions from MCP_MAX_SESSIONS.
#include <mcp/server/options.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/stdio.hpp>

#include "telemetry/otlp_environment.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace mcp::detail {

// Everything mcp::run serves with; the code's values are the defaults --help shows.
struct RunOptions {
    ServerOptions server;
    HttpOptions http;
    bool serve_http = false;  // --http given: Streamable HTTP instead of stdio
    StdioOptions stdio;
    std::string stdio_subject;              // --stdio-subject: the principal of a stdio server
    std::vector<std::string> stdio_scopes;  // --stdio-scopes
    std::string rate_limit;                 // --rate-limit N/s
    std::string secret_file;                // --secret-file; without it MCP_SECRET holds the key text
    std::string log_level = "info";
    std::string log_format = "text";
    telemetry::TracingFlags tracing;  // resolved with the OTEL_* variables into server.tracing
};

// Declares --config and every option group on app, bound to options: they must outlive the parse.
void add_options(CLI::App& app, RunOptions& options);

// After the parse: loads the key ring and checks what spans options. Throws with the message.
void finish_options(RunOptions& options);

// "50/s" or "50" -> 50; nothing for anything else.
std::optional<double> parse_rate(std::string_view text);

// "--max-sessions" -> "MCP_MAX_SESSIONS".
std::string env_name(const std::string& long_flag);

}  // namespace mcp::detail
