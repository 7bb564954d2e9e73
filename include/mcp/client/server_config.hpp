#pragma once
// The servers a host configuration file names, as the hosts write them, and the transport each
// entry makes.
//
//   {"mcpServers": {...}}  Claude Desktop, Cursor, Claude Code: command, args, env, cwd for a
//                          server the host starts; url, headers (and type "http" or "sse") for a
//                          remote one.
//   {"servers": {...}}     VS Code (.vscode/mcp.json): the same fields with type "stdio", "http"
//                          or "sse", and envFile.
//
//   auto servers = mcp::read_server_config(".vscode/mcp.json", {.workspace_folder = root});
//   auto transport = mcp::make_transport(servers.front());
//
// Both formats accept comments and trailing commas (VS Code writes JSONC), envFile, and the
// variables ${env:NAME} (the host's environment; empty when unset, as VS Code does),
// ${workspaceFolder} and ${userHome} in every string value. VS Code's ${input:...} and
// ${command:...} need the editor and are refused. Fields a host adds of its own (disabled,
// autoApprove, ...) are ignored; a known field of the wrong type is an error naming the server and
// the field.
#include <mcp/client/stdio_limits.hpp>
#include <mcp/client/transport.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

enum class ServerTransportKind { stdio, http, sse };
std::string_view to_string(ServerTransportKind kind);

// An http or sse entry's "oauth", a field of mcp-cpp's own: the transport authorizes itself with
// OAuth 2.1 when the server answers 401 (mcp/client/oauth.hpp). For a program with no user at hand
// (mcp-cpp-gateway) it is client credentials, or a token stored once and refreshed since:
//
//   "oauth": {"grant": "client_credentials", "clientId": "gateway", "clientSecret": "${env:SECRET}",
//             "scopes": ["notes:read"]}
//   "oauth": {"tokenFile": "/var/lib/gateway/notes.json"}   (tokens kept, and refreshed, there)
struct ServerOAuth {
    // "client_credentials" (needs clientId), or "authorization_code" (the default: a browser,
    // unless tokenFile holds a token that can still be refreshed).
    bool client_credentials = false;
    std::string client_id;
    std::string client_secret;
    // The scopes to ask for instead of the server's challenge's.
    std::vector<std::string> scopes;
    // Where the registration and the tokens are kept (mcp::FileTokenStore); empty: in memory.
    std::string token_file;
};

// One server entry, its variables substituted.
struct ServerConfig {
    std::string name;  // the entry's key
    ServerTransportKind transport = ServerTransportKind::stdio;

    // stdio: the program, started with the host's environment plus `env`.
    std::string command;
    std::vector<std::string> args;
    // envFile's variables first, then env's (a variable in both takes env's value).
    std::vector<std::pair<std::string, std::string>> env;
    std::string cwd;
    // "limits", a field of mcp-cpp's own: {"memoryMiB": 1024, "cpuSeconds": 600, "openFiles": 256,
    // "processes": 64}, each a whole number from 1 to StdioLimits' max_*; an unknown member is an
    // error.
    StdioLimits limits;

    // http (Streamable HTTP) and sse (the 2024-11-05 HTTP+SSE transport).
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::optional<ServerOAuth> oauth;
};

struct ConfigOptions {
    // ${workspaceFolder}; empty: an entry that names it is refused.
    std::string workspace_folder;
    // Where a relative envFile or cwd is found; read_server_config uses the file's directory.
    std::filesystem::path base_directory;
    // ${env:NAME} and ${userHome}: the process environment unless given.
    std::function<std::optional<std::string>(const std::string& name)> environment;
    // The configuration and each envFile; larger ones are refused.
    std::size_t max_bytes = 1024 * 1024;
    std::size_t max_servers = 256;
};

// A configuration that cannot be used: what() is "<file>: server \"github\", headers.Authorization:
// <problem>"; server() and field() are empty for the file as a whole, file() for a text parsed.
class ConfigError : public std::runtime_error {
public:
    ConfigError(std::string server, std::string field, std::string problem, std::string file = {});
    const std::string& server() const noexcept { return server_; }
    const std::string& field() const noexcept { return field_; }
    const std::string& problem() const noexcept { return problem_; }
    const std::string& file() const noexcept { return file_; }

private:
    std::string server_;
    std::string field_;
    std::string problem_;
    std::string file_;
};

// The servers of a configuration, in the file's order. Throws mcp::ConfigError.
std::vector<ServerConfig> parse_server_config(std::string_view text, const ConfigOptions& options = {});
// The same from a file (at most max_bytes); the message starts with the file's path.
std::vector<ServerConfig> read_server_config(const std::filesystem::path& file, ConfigOptions options = {});

// The transport of one entry: StdioTransport for stdio, HttpTransport for http, LegacySseTransport
// for sse (the last two authorizing themselves with the entry's oauth, if any). Throws
// std::invalid_argument naming the server when the entry cannot make one.
std::shared_ptr<ClientTransport> make_transport(const ServerConfig& config);

}  // namespace mcp
