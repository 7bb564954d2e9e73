#pragma once
// A client transport to an mcp::Server in the same process: every message goes to the server
// through its public API (Server::open_session, Server::handle), in either revision, and what the
// server sends back (responses, notifications, a 2025 server's requests) comes to the client. For
// hosts that embed their own tools, and for tests.
//
//   mcp::Server server{{.name = "tools", .version = "1"}};
//   mcp::Client client(mcp::in_process(server));
//   client.connect();
#include <mcp/client/transport.hpp>
#include <mcp/server/request_context.hpp>

#include <memory>

namespace mcp {

class Server;

struct InProcessOptions {
    // Who the server takes the client for (its tools' scopes are checked against it); null: anonymous.
    std::shared_ptr<const Principal> principal;
};

// The server must outlive the transport's use.
std::shared_ptr<ClientTransport> in_process(Server& server, InProcessOptions options = {});

}  // namespace mcp
