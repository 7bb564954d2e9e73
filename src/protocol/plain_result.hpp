#pragma once
// A JSON-RPC response found by matching its text, so that its result can be read straight into
// a typed value without building a document first (the client's hot path).

#include <cstdint>
#include <optional>
#include <string_view>

namespace mcp::jsonrpc {

struct PlainResult {
    std::int64_t id = 0;
    std::string_view result;  // unparsed: the caller's reader checks that it is one JSON value
};

// Matches {"jsonrpc":"2.0","id":N,"result":R} and {"result":R,"jsonrpc":"2.0","id":N}, written
// without spaces (the orders the SDKs' servers write), N a non-negative integer. The message is
// exactly such a response if and only if R is one JSON value. Anything else: nullopt, and the
// message takes the general path.
std::optional<PlainResult> match_plain_result(std::string_view text);

}  // namespace mcp::jsonrpc
