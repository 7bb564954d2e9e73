#pragma once
// Everything a server author needs (and mcp::Client, for a host that uses servers):
//
//   #include <mcp/mcp.hpp>
//
//   struct Greet { std::string name; };
//   BOOST_DESCRIBE_STRUCT(Greet, (), (name))
//
//   int main(int argc, char** argv) {
//       mcp::Server server{{.name = "greeter", .version = "1.0.0"}};
//       server.tool("greet", "Greets someone", [](const Greet& in) { return "Hello, " + in.name; });
//       return mcp::run(server, argc, argv);
//   }
#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/client/group.hpp>
#include <mcp/client/server_config.hpp>
#include <mcp/client/stdio.hpp>
#include <mcp/ext/apps.hpp>
#include <mcp/ext/skills.hpp>
#include <mcp/ext/skills_client.hpp>
#include <mcp/json/bind.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>  // mcp::Error, ToolError, ResourceNotFound, StoreUnavailable
#include <mcp/run.hpp>
#include <mcp/server/blocking.hpp>
#include <mcp/server/local_connection.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/stdio.hpp>
