#pragma once
// The gateway's own arguments, taken out of the command line; the rest is mcp::run's.
#include "gateway.hpp"

#include <string>
#include <vector>

namespace mcp_gateway {

struct GatewayArguments {
    // --servers FILE (or --servers=FILE; else the MCP_SERVERS variable): the host configuration.
    std::string servers_file;
    // --no-prefix: the one configured server's names and URIs as they are.
    bool no_prefix = false;
    // --idle-stop DURATION, --max-children N and --child-memory MiB, --child-cpu SECONDS,
    // --child-files N, --child-processes N: the limits of the stdio children.
    ChildLimits limits;
    // --help or -h among the arguments: the gateway's usage goes before mcp::run's.
    bool help = false;
    // Everything else, the program's name first, for mcp::run.
    std::vector<std::string> run_arguments;
};

// Throws std::invalid_argument for --servers without a value, or given twice, and for a duration
// or a count that is not one.
GatewayArguments split_arguments(int argc, const char* const* argv, const char* servers_from_env);

// What --help shows before mcp::run's options.
extern const char* const kUsage;

}  // namespace mcp_gateway
