#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <iostream>
#include <optional>

namespace mcp_client_tool {

namespace {

constexpr const char* kAbout =
    "mcp-cpp-client [OPTIONS] SUBCOMMAND [ARGS] [-- COMMAND ARGS...]\n\n"
    "Calls one MCP server: the one COMMAND starts (stdio), the one at --url, or an entry of a host's\n"
    "configuration file (--config, --server). Arguments are k=v; a value is JSON when it parses as JSON\n"
    "(and the tool's input schema does not say it is a string), a string otherwise. ${env:NAME} in\n"
    "--url and --header values is taken from the environment, as in configuration files.\n";

constexpr const char* kExamples =
    "Examples:\n"
    "  mcp-cpp-client tools/list -- mcp-cpp-demo --stdio\n"
    "  mcp-cpp-client tools/call echo text=hello -- mcp-cpp-demo --stdio\n"
    "  mcp-cpp-client --config .vscode/mcp.json --server notes resources/read demo://server/stats\n"
    "  mcp-cpp-client --url https://mcp.example.com/mcp --oauth tools/list\n";

// "250ms", "20s", "5m", or a number of seconds.
std::optional<std::chrono::milliseconds> parse_timeout(std::string_view text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || value <= 0) return std::nullopt;
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    double ms = 0;
    if (unit.empty() || unit == "s")
        ms = value * 1000;
    else if (unit == "ms")
        ms = value;
    else if (unit == "m")
        ms = value * 60'000;
    else
        return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(ms));
}

}  // namespace

std::variant<CommandLine, int> parse_command_line(int argc, char** argv) {
    CommandLine cl;
    // Everything after the first "--" is the server's command line, whatever it looks like.
    int own = argc;
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--") {
            own = i;
            cl.server_command.assign(argv + i + 1, argv + argc);
            break;
        }
    }

    CLI::App app(kAbout, "mcp-cpp-client");
    app.footer(kExamples);
    app.require_subcommand(1);
    app.add_option("--url", cl.url, "The server's Streamable HTTP endpoint (or a 2024-11-05 HTTP+SSE one)");
    app.add_option("--header", cl.headers, "A request header for a server over HTTP, \"Name: value\"; repeatable")
        ->allow_extra_args(false);
    app.add_option("--config", cl.config,
                   "A host configuration file: {\"mcpServers\": ...} (Claude Desktop, Cursor) or {\"servers\": ...} "
                   "(VS Code)");
    app.add_option("--server", cl.server, "The entry of --config to use (not needed when it has one)");
    app.add_flag("--oauth", cl.oauth,
                 "Authorize with OAuth 2.1 when the server asks: prints the URL to open, and receives the browser's "
                 "redirect on 127.0.0.1");
    app.add_option("--oauth-client-id", cl.oauth_client_id,
                   "A client id registered with the authorization server beforehand (else: dynamic registration)");
    app.add_option("--oauth-client-secret", cl.oauth_client_secret,
                   "Its secret; ${env:NAME} takes it from the environment");
    app.add_flag("--oauth-client-credentials", cl.oauth_client_credentials,
                 "The client credentials grant with --oauth-client-id and --oauth-client-secret (no browser)");
    app.add_option("--oauth-token-file", cl.oauth_token_file,
                   "Keep registrations and tokens in this file (mode 0600) from one run to the next");
    app.add_option("--otlp-endpoint", cl.otlp_endpoint,
                   "Export a span per request over OTLP/HTTP to this traces URL (e.g. "
                   "http://127.0.0.1:4318/v1/traces); the server continues the trace");
    app.add_flag("--json", cl.json, "Print the server's results as JSON");
    app.add_flag("-v,--verbose", cl.verbose, "Show the server's stderr as it comes");
    app.add_option("--protocol-version", cl.protocol_version,
                   "auto (the newest both speak), or a revision such as 2025-11-25 or 2026-07-28")
        ->default_str("auto");
    app.add_option_function<std::string>(
           "--timeout",
           [&cl](const std::string& text) {
               const auto parsed = parse_timeout(text);
               if (!parsed) throw CLI::ValidationError("--timeout", "expected a duration such as 30s, 250ms or 2m");
               cl.timeout = *parsed;
           },
           "How long a request may take; progress notifications extend it")
        ->default_str("60s");

    auto* list = app.add_subcommand("tools/list", "List the server's tools");
    auto* call = app.add_subcommand("tools/call", "Call a tool: tools/call NAME k=v...");
    call->add_option("name", cl.target, "The tool")->required();
    call->add_option("arguments", cl.pairs, "k=v: the tool's arguments");
    auto* read = app.add_subcommand("resources/read", "Read a resource: resources/read URI");
    read->add_option("uri", cl.target, "The resource's URI")->required();
    auto* get = app.add_subcommand("prompts/get", "Get a prompt: prompts/get NAME k=v...");
    get->add_option("name", cl.target, "The prompt")->required();
    get->add_option("arguments", cl.pairs, "k=v: the prompt's arguments");
    for (auto* sub : {list, call, read, get}) sub->fallthrough();

    try {
        app.parse(own, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "mcp-cpp-client: " << e.what() << "\n(mcp-cpp-client --help says how)\n";
        return 2;
    }
    cl.command = app.get_subcommands().front()->get_name();
    const bool oauth_details = !cl.oauth_client_id.empty() || !cl.oauth_client_secret.empty() ||
                               cl.oauth_client_credentials || !cl.oauth_token_file.empty();
    if (oauth_details && !cl.oauth) {
        std::cerr << "mcp-cpp-client: the --oauth-* options go with --oauth\n";
        return 2;
    }
    if (cl.oauth_client_credentials && cl.oauth_client_id.empty()) {
        std::cerr << "mcp-cpp-client: --oauth-client-credentials needs --oauth-client-id\n";
        return 2;
    }
    return cl;
}

}  // namespace mcp_client_tool
