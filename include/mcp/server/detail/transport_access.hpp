#pragma once
// What the library's own transports reach in a Server beyond its public API. Not for applications.
namespace mcp {
class Server;
}

namespace mcp::detail {

class SessionService;

// The 2025-era session service (src/sessions), which the HTTP transport attaches streams to.
SessionService& session_service(Server& server);

}  // namespace mcp::detail
