#pragma once
// What a client's call throws besides the server's own JSON-RPC errors, which arrive as mcp::Error
// (mcp::InvalidParams for -32602) with the server's code, message and data.
#include <mcp/json/schema_validator.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace mcp {

// The base of the failures below: the call did not get an answer it could use.
class ClientFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The call's stop token was triggered: the call failed at once, and the server was told
// (notifications/cancelled, or the request's stream closed).
class Cancelled : public ClientFailure {
public:
    Cancelled() : ClientFailure("the request was cancelled") {}
};

// No answer within the call's timeout (progress notifications extend it up to its maximum); the
// server was told, as for a cancellation.
class RequestTimeout : public ClientFailure {
public:
    using ClientFailure::ClientFailure;
};

// The transport can carry nothing more (the server process exited, the client was closed); every
// call in flight fails with this at once.
class ConnectionClosed : public ClientFailure {
public:
    using ClientFailure::ClientFailure;
};

// The transport could not deliver this one request or its answer. HTTP transports say what came
// back: the status (0 when the connection dropped first) and the body.
class TransportError : public ClientFailure {
public:
    TransportError(const std::string& message, int http_status, std::string body)
        : ClientFailure(message), http_status_(http_status), body_(std::move(body)) {}
    int http_status() const noexcept { return http_status_; }
    const std::string& body() const noexcept { return body_; }

private:
    int http_status_;
    std::string body_;
};

// The server sent something the protocol does not allow: a result that is not the method's
// shape, an input request the client did not declare, cursors that go round in a circle.
class ProtocolViolation : public ClientFailure {
public:
    using ClientFailure::ClientFailure;
};

// A 2026 request still asked for input after ClientOptions::max_input_rounds answered rounds.
class InputRoundsExceeded : public ClientFailure {
public:
    explicit InputRoundsExceeded(int rounds);
    int rounds() const noexcept { return rounds_; }

private:
    int rounds_;
};

// A tool's structuredContent does not match the outputSchema its listing declared (or is missing).
class OutputSchemaMismatch : public ClientFailure {
public:
    OutputSchemaMismatch(const std::string& tool, json::ValidationError error);
    const json::ValidationError& error() const noexcept { return error_; }

private:
    json::ValidationError error_;
};

// Client and server share no protocol version (or the server needs a transport this client was
// not given, such as the 2024-11-05 HTTP+SSE one).
class IncompatibleServer : public ClientFailure {
public:
    IncompatibleServer(const std::string& message, std::vector<std::string> server_versions = {})
        : ClientFailure(message), server_versions_(std::move(server_versions)) {}
    // The versions the server said it supports, when it said.
    const std::vector<std::string>& server_versions() const noexcept { return server_versions_; }

private:
    std::vector<std::string> server_versions_;
};

}  // namespace mcp
