#pragma once
// Opaque pagination cursors: the last key of a page, sealed with the key ring so a forged or
// altered cursor is refused with -32602 instead of being trusted, and a cursor from one node is
// good on every node sharing the ring.
#include <mcp/security/key_ring.hpp>

#include <string>
#include <string_view>

namespace mcp::detail {

// `list` names the list the cursor belongs to ("tools", "prompts"…); a cursor of one list is not
// accepted by another.
std::string encode_cursor(const KeyRing& keys, std::string_view list, std::string_view last_key);
// The last key; throws mcp::InvalidParams for anything the ring did not seal for `list`.
std::string decode_cursor(const KeyRing& keys, std::string_view list, std::string_view cursor);

}  // namespace mcp::detail
