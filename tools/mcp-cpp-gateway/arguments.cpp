#include "arguments.hpp"

#include <stdexcept>
#include <string_view>

namespace mcp_gateway {

const char* const kUsage =
    "mcp-cpp-gateway: the MCP servers a host configuration names, served as one MCP server.\n"
    "\n"
    "Usage: mcp-cpp-gateway --servers FILE [mcp::run's options, e.g. --http 127.0.0.1:8080]\n"
    "\n"
    "Gateway:\n"
    "  --servers FILE    The servers: {\"mcpServers\": {...}} (Claude Desktop, Cursor) or VS Code's\n"
    "                    {\"servers\": {...}}; env MCP_SERVERS. Each server's tools and prompts are\n"
    "                    <server>_<name>, its resource URIs scheme://<server>/...\n"
    "  --no-prefix       Serve the one server of FILE under its own names and URIs (a gateway\n"
    "                    in front of a single server)\n"
    "\n";

GatewayArguments split_arguments(int argc, const char* const* argv, const char* servers_from_env) {
    GatewayArguments out;
    if (argc > 0) out.run_arguments.emplace_back(argv[0]);
    bool servers_given = false;
    auto take_servers = [&](std::string_view file) {
        if (servers_given) throw std::invalid_argument("--servers given twice");
        if (file.empty()) throw std::invalid_argument("--servers needs a file");
        servers_given = true;
        out.servers_file = file;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--servers") {
            if (i + 1 >= argc) throw std::invalid_argument("--servers needs a file");
            take_servers(argv[++i]);
        } else if (arg == "--no-prefix") {
            out.no_prefix = true;
        } else if (arg.starts_with("--servers=")) {
            take_servers(arg.substr(std::string_view("--servers=").size()));
        } else {
            if (arg == "--help" || arg == "-h") out.help = true;
            out.run_arguments.emplace_back(arg);
        }
    }
    if (!servers_given && servers_from_env != nullptr) out.servers_file = servers_from_env;
    return out;
}

}  // namespace mcp_gateway
