#pragma once
// The contract between mcp::Client and a transport (docs/adr/0023-client.md). A transport moves
// JSON-RPC messages and knows nothing of MCP beyond what each OutboundMessage tells it; the client
// parses, correlates, times out and cancels. stdio (mcp/client/stdio.hpp), HTTP (mcp/client/http.hpp)
// and the in-process bridge (mcp/bridge/in_process.hpp) implement it, and an application may bring
// its own.
#include <boost/json/value.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace mcp {

// Why one outbound message came to nothing.
struct TransportFailure {
    std::string message;  // for people
    // HTTP transports: the response's status (0 when there was none: the connection dropped, a
    // body over the limit) and its body (bounded). The client's negotiation reads both.
    int http_status = 0;
    std::string body;
};

struct OutboundMessage {
    enum class Kind { request, notification, response };
    Kind kind = Kind::request;
    // The message, serialized on one line.
    std::string text;
    // The request's id (an integer the client chose), or the id a response answers; null for a
    // notification.
    boost::json::value id;
    // What Streamable HTTP mirrors into headers (2026-07-28):
    std::string method;               // Mcp-Method; empty for a response
    std::optional<std::string> name;  // Mcp-Name: the value of the method's entity param (tool, URI, task id)
    // Mcp-Param-<name> values from the tool's x-mcp-header annotations, as text, not yet encoded
    // (the transport applies =?base64?…?= where a value needs it).
    std::vector<std::pair<std::string, std::string>> params;
    // MCP-Protocol-Version: the request's _meta version (2026), the negotiated one (2025); empty
    // before negotiation has chosen one.
    std::string protocol_version;
    // Called at most once, on any thread, when this message fails in the transport (nothing to
    // call when it was delivered, or when the transport as a whole closed: that is `closed`). A
    // request's call then fails with mcp::TransportError.
    std::function<void(const TransportFailure&)> failed;
};

// What a transport reports to the client. The functions are thread-safe; `message` may be called
// from several threads at once (the in-process bridge does), with the messages of one request in
// order.
struct TransportEvents {
    // One inbound message's text (a stdio line, an HTTP JSON body, an SSE event's data): the
    // client parses it, under its size and depth limits.
    std::function<void(std::string_view text)> message;
    // A line of the server's diagnostics (stdio: stderr), already bounded and rate-limited.
    std::function<void(std::string_view line)> diagnostic;
    // Once, when the transport can carry nothing more (the process exited, close() finished).
    // Every call in flight fails with mcp::ConnectionClosed and this reason.
    std::function<void(const std::string& reason)> closed;
};

class ClientTransport {
public:
    virtual ~ClientTransport() = default;

    // Starts the transport. Its I/O and timers run on `io`, the client's context; it keeps
    // `events` and calls them until `closed`. Called once, before any send. Throws when it cannot
    // start (a command that does not exist).
    virtual void open(boost::asio::io_context& io, TransportEvents events) = 0;

    // Queues a message. Thread-safe; never blocks on I/O.
    virtual void send(OutboundMessage message) = 0;

    // Whether this transport sends what an OutboundMessage mirrors into headers (`name`, `params`,
    // a request's `protocol_version`). False (stdio, in-process): the client leaves them empty and
    // skips the work of finding them.
    virtual bool mirrors_headers() const { return true; }

    // Cancels a request in flight by the transport's own means (2026 Streamable HTTP closes the
    // request's response stream). False when it has none: the client then sends
    // notifications/cancelled.
    virtual bool cancel(const boost::json::value& id) {
        (void)id;
        return false;
    }

    // The response to this request arrived (the client calls it from within `events.message`,
    // before it acts on the response). A transport may let go of what it held for the request: a
    // 2025 Streamable HTTP transport resumes a response stream cut before this, and no other.
    virtual void answered(const boost::json::value& id) { (void)id; }

    // The client's negotiation found a server of the deprecated 2024-11-05 HTTP+SSE transport at
    // this transport's URL (it refused the initialize POST with 400, 404 or 405). A transport that
    // speaks that one too switches to it and returns true: what is sent from then on goes there.
    // False: connect fails with mcp::IncompatibleServer.
    virtual bool switch_to_legacy_sse() { return false; }

    // Begins the end: nothing more is sent, the server is let go (stdio: the shutdown escalation),
    // and `closed` follows once that is done. Thread-safe, idempotent, returns at once.
    virtual void close() = 0;
};

}  // namespace mcp
