#pragma once
// Which server the command line names, as a host configuration entry: what --url, --config or
// "-- COMMAND" gives goes through the same checks as a configuration file's entries, and becomes a
// transport through mcp::make_transport like a ClientGroup's.
#include "command_line.hpp"

#include <mcp/client/server_config.hpp>

namespace mcp_client_tool {

// Throws UsageError, or mcp::ConfigError for an entry that cannot be used.
mcp::ServerConfig server_entry(const CommandLine& cl);

}  // namespace mcp_client_tool
