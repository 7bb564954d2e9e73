#pragma once
// Which rules a request is served under, and the 2026-07-28 per-request envelope.
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/sessions/session.hpp>
#include <mcp/server/sink.hpp>

#include <memory>
#include <optional>

namespace mcp::detail {

// A request is modern (2026-07-28, stateless) when its params._meta carries any
// "io.modelcontextprotocol/" key, when an MCP-Protocol-Version header names 2026-07-28 or later
// (compared as strings, so unknown future versions count as modern), or when its method exists
// only in the modern era. Everything else follows the 2025 session rules.
Era classify_era(const jsonrpc::Message& request, const RequestHeaders* headers);

struct Envelope {
    std::shared_ptr<const ClientState> client;
    std::optional<LogLevel> log_level;
};

// Reads params._meta of a modern request. Throws mcp::Error -32602 when the envelope is missing
// or malformed (protocolVersion and clientCapabilities are required).
Envelope read_envelope(const jsonrpc::Message& request);

// The request's _meta.progressToken when it is a string or an integer, else null.
boost::json::value progress_token_of(const jsonrpc::Message& request);

}  // namespace mcp::detail
