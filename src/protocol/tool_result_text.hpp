#pragma once
// A tools/call result read from its text straight into the typed result, for the usual shape.

#include <cstddef>
#include <mcp/protocol/content.hpp>
#include <optional>
#include <string_view>

namespace mcp::detail {

// A result of text content blocks and isError, read by a SAX handler with no document in between:
// what tool_result_from_wire would read from it. nullopt when `text` is anything else (another
// member such as structuredContent or _meta, another content type, annotations, a member twice,
// malformed JSON, or more than one value): that takes the document's path.
std::optional<CallToolResult> plain_tool_result(std::string_view text, std::size_t max_depth);

}  // namespace mcp::detail
