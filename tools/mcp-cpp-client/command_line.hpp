#pragma once
// mcp-cpp-client's command line: the subcommand and its arguments, which server, and how to talk.
#include <chrono>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace mcp_client_tool {

struct CommandLine {
    std::string command;             // tools/list, tools/call, resources/read, prompts/get
    std::string target;              // the tool's or prompt's name, the resource's URI
    std::vector<std::string> pairs;  // k=v arguments
    // The server: one of these.
    std::string url;
    std::string config;
    std::string server;                       // with config: the entry's name
    std::vector<std::string> server_command;  // after "--"
    std::vector<std::string> headers;         // "Name: value", for a server over HTTP
    // OAuth 2.1 for a server over HTTP: the browser flow (the URL printed, the redirect received
    // on 127.0.0.1), or client credentials; registrations and tokens kept in a 0600 file if named.
    bool oauth = false;
    std::string oauth_client_id;
    std::string oauth_client_secret;
    bool oauth_client_credentials = false;
    std::string oauth_token_file;
    std::string otlp_endpoint;  // the collector's traces URL: a CLIENT span per request
    bool json = false;
    bool verbose = false;
    std::string protocol_version = "auto";
    std::chrono::milliseconds timeout{60'000};
};

// A command line that cannot be run; exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The command line, or the exit status when it was answered already (--help) or refused (the
// message is printed).
std::variant<CommandLine, int> parse_command_line(int argc, char** argv);

}  // namespace mcp_client_tool
