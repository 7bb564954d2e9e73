#pragma once
// Which rules a message is served under, and the 2026-07-28 per-request envelope.
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/storage_ptr.hpp>

#include <memory>
#include <optional>

namespace mcp::detail {

// A request is stateless (2026-07-28) when its params._meta carries any "io.modelcontextprotocol/"
// key, when the MCP-Protocol-Version header (empty when absent) names 2026-07-28 or later (compared
// as strings, so unknown future versions count), or when its method exists only in that era and no
// header names an earlier version (a 2025 client asking for server/discover or tasks/update gets
// -32601 as in its own era). Notifications and responses carry no envelope: the header alone
// decides. Everything else follows the 2025 session rules.
Era classify_era(const jsonrpc::Message& message, std::string_view protocol_version_header);
// Whether an MCP-Protocol-Version header (empty when absent) names the stateless era.
bool stateless_version_header(std::string_view protocol_version_header);

struct Envelope {
    std::shared_ptr<const ClientState> client;
    std::optional<LogLevel> log_level;
};

// Reads params._meta of a modern request. Throws mcp::Error -32602 when the envelope is missing
// or malformed (protocolVersion and clientCapabilities are required). The client's state is made
// in `storage` (a call's arena), which it keeps alive.
Envelope read_envelope(const jsonrpc::Message& request, const boost::json::storage_ptr& storage = {});

// The request's _meta.progressToken when it is a string or an integer, else null.
boost::json::value progress_token_of(const jsonrpc::Message& request);

}  // namespace mcp::detail
