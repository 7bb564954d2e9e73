#pragma once
// What the library's own transports reach in a Server beyond its public API. Not for applications.
#include <memory>
#include <stop_token>

namespace boost::json {
class value;
}
namespace mcp {
class Server;
class CallSink;
struct Inbound;
}  // namespace mcp
namespace mcp::jsonrpc {
struct Message;
}
namespace mcp::telemetry {
class Tracer;
}

namespace mcp::detail {

class SessionService;

// The 2025-era session service (src/sessions), which the HTTP transport attaches streams to.
SessionService& session_service(Server& server);
// Whether the server answers this 2025 request on the calling thread without asking a shared
// store (ping, listings, runs_inline handlers that never park): the HTTP transport then serves a
// session it trusts without handing the request to its store threads.
bool answers_without_store(const Server& server, const jsonrpc::Message& message);
// Server::handle of a document the transport parsed with jsonrpc::parse: its arena is the
// call's to build results in (a handler's text result, a list page), not the embedder's. Returns
// the call's own stop source for a request, which the transport trips to cancel it (a 2026-07-28
// client that left): one stop state per call, where Inbound::cancel would link a second.
std::stop_source handle_parsed(Server& server, boost::json::value document, const Inbound& inbound,
                               std::shared_ptr<CallSink> sink);
// The server's tracer (ServerOptions::tracing), for the spans a transport records itself (a
// token's verification, a GET stream); null when tracing is off.
telemetry::Tracer* tracer(const Server& server);

}  // namespace mcp::detail
