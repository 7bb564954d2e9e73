#pragma once
// The one entry point of a server binary:
//
//   int main(int argc, char** argv) {
//       mcp::Server server{{.name = "demo", .version = "1.0.0"}};
//       ... register tools ...
//       return mcp::run(server, argc, argv);
//   }
//
// It owns every runtime option, from command-line flags, a configuration file (--config, INI or
// TOML) and MCP_* environment variables, in that order of precedence; `--help` lists them.
// Values the server was constructed with are the defaults. Bad values end the process with a
// message on stderr and exit code 2.
#include <functional>

namespace mcp {

class Server;

int run(Server& server, int argc, char** argv);
// The same, and `ready` runs once the options are the server's (Server::options(),
// Server::tracer()) and logging is set up, before serving: what depends on them is built there
// (mcp-cpp-gateway's upstream clients share the server's tracer). An exception from it ends the
// process with its message and exit code 2.
int run(Server& server, int argc, char** argv, const std::function<void()>& ready);

}  // namespace mcp
