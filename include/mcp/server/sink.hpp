#pragma once
// The contract between the transport-agnostic core and a transport (or an embedding application).
// For every inbound message a transport calls Server::handle with a CallSink; the core writes the
// messages produced for that message to it, the response last.
#include <mcp/protocol/message_sink.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/server/request_context.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

class Session;
class Refusal;

// The messages for one inbound message: any number of send() calls (progress, log messages),
// then exactly one complete().
class CallSink : public MessageSink {
public:
    // The response, or nothing when there is none to send (the inbound message was a
    // notification or a client's response, or the request was cancelled).
    virtual void complete(std::optional<boost::json::value> response) = 0;
    // A sink that writes messages as text says so, and the core then hands it successful
    // responses as their JSON text (complete_text) rather than as values it would only serialize.
    virtual bool takes_text() const { return false; }
    // A successful response as JSON text; by default read back into a value for complete().
    virtual void complete_text(std::string response);
    // An error response because the server cannot take the request now: it is at a limit (handler
    // pool, open streams) or its shared store is away. HTTP answers these with 503; by default they
    // are ordinary responses.
    virtual void complete_overloaded(boost::json::value response) { complete(std::move(response)); }
    // An error response to a request an interceptor refused (mcp::Refusal): HTTP answers with the
    // refusal's status and headers; by default it is an ordinary response.
    virtual void complete_refused(const Refusal& refusal, boost::json::value response) {
        (void)refusal;
        complete(std::move(response));
    }
    // Ends the response stream now while the call goes on; the client resumes it with
    // Last-Event-ID (2025-11-25 HTTP, SEP-1699 polling). False where streams cannot be resumed.
    virtual bool release_stream() { return false; }
};

// The request metadata headers of Streamable HTTP (2026-07-28): values trimmed of surrounding
// whitespace, still encoded (=?base64?…?=). Absent on stdio.
struct RequestHeaders {
    std::optional<std::string> protocol_version;  // MCP-Protocol-Version
    std::optional<std::string> method;            // Mcp-Method
    std::optional<std::string> name;              // Mcp-Name
    // Mcp-Param-<Name> headers: the <Name> part lowercased, and the value.
    std::vector<std::pair<std::string, std::string>> params;
};

// The connection a message came over, for the request's span (OpenTelemetry's network.* and
// client.* attributes). The transport fills what it knows at no cost to a request: literals, and
// views of what it keeps for the connection or the request, valid while Server::handle runs.
struct InboundNetwork {
    std::string_view transport;         // network.transport: "tcp", "pipe"; empty in-process
    std::string_view protocol_name;     // network.protocol.name: "http"; empty on stdio
    std::string_view protocol_version;  // network.protocol.version: "1.1"
    std::string_view client_address;    // client.address, whole (not the prefix of client_address below)
    std::uint16_t client_port = 0;      // client.port; 0 when unknown (behind a proxy)
};

// What the transport knows about an inbound message besides its body.
struct Inbound {
    // The 2025-era session (HTTP), or the connection's session (stdio, in-process). May be null.
    std::shared_ptr<Session> session;
    // Trips the call's stop token; e.g. the response stream was closed (2026-07-28 HTTP).
    std::stop_token cancel;
    // Streamable HTTP request metadata; nullptr on stdio and in-process.
    const RequestHeaders* headers = nullptr;
    // Who is asking, as the transport's authenticator established it; null when anonymous.
    std::shared_ptr<const Principal> principal;
    // The traceparent/tracestate headers; when empty, params._meta may carry them.
    TraceContext trace;
    // The era the transport found the message in (Streamable HTTP decides it before the core
    // sees the message); the core classifies it when this is empty.
    std::optional<Era> era;
    // The client's address as the transport sees it (behind trusted proxies, the forwarded one;
    // IPv6 by its prefix, "2001:db8:1:2::/64"); empty on stdio and in-process. With the principal,
    // it says who the client is for the bounds kept per client (docs/adr/0024-fair-limits.md).
    std::string client_address;
    InboundNetwork network;
};

}  // namespace mcp
