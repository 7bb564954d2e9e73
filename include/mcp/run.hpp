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
namespace mcp {

class Server;

int run(Server& server, int argc, char** argv);

}  // namespace mcp
