// mcp-cpp-gateway: the MCP servers a host configuration names (stdio programs it starts, remote
// ones it connects to) served as one MCP server, with every option of mcp::run: Streamable HTTP
// for both revisions, OAuth, TLS, CORS, metrics, the audit log (docs/adr/0029-gateway.md).
//
//   mcp-cpp-gateway --servers claude_desktop_config.json --http 127.0.0.1:8080
#include "arguments.hpp"
#include "gateway.hpp"

#include <mcp/client/server_config.hpp>
#include <mcp/run.hpp>
#include <mcp/server/server.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>

namespace {

// How long the servers' first attempts get before the gateway serves (those still starting join
// the lists when they connect).
constexpr std::chrono::seconds kStartupWait{30};

int run_mcp(mcp::Server& server, std::vector<std::string>& arguments, const std::function<void()>& ready = {}) {
    std::vector<char*> argv;
    argv.reserve(arguments.size());
    for (auto& a : arguments) argv.push_back(a.data());
    return mcp::run(server, static_cast<int>(argv.size()), argv.data(), ready);
}

// Names on stderr the servers that are not connected yet.
void report_not_started(const mcp_gateway::Gateway& gateway) {
    for (const auto& state : gateway.servers()) {
        if (state.status != mcp::ServerStatus::connected) {
            std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" is %s: %s\n", state.name.c_str(),
                         std::string(mcp::to_string(state.status)).c_str(), state.error.c_str());
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    mcp_gateway::GatewayArguments arguments;
    try {
        arguments = mcp_gateway::split_arguments(argc, argv, std::getenv("MCP_SERVERS"));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcp-cpp-gateway: error: %s\n", e.what());
        return 2;
    }
    mcp::Server server{{.name = "mcp-cpp-gateway", .version = MCP_CPP_VERSION, .title = "mcp-cpp-gateway"}};
    if (arguments.help) {
        std::cout << mcp_gateway::kUsage;
        return run_mcp(server, arguments.run_arguments);
    }
    if (arguments.servers_file.empty()) {
        std::fprintf(stderr, "mcp-cpp-gateway: error: --servers FILE is required (see --help)\n");
        return 2;
    }
    std::vector<mcp::ServerConfig> servers;
    try {
        servers = mcp::read_server_config(arguments.servers_file);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mcp-cpp-gateway: error: %s\n", e.what());
        return 2;
    }
    // Made once mcp::run applied the options (its clients share the server's tracer); it outlives
    // the serving.
    std::optional<mcp_gateway::Gateway> gateway;
    return run_mcp(server, arguments.run_arguments, [&] {
        gateway.emplace(server, servers, !arguments.no_prefix, arguments.limits);
        if (!gateway->wait_started(kStartupWait)) report_not_started(*gateway);
    });
}
