#pragma once
// Opaque pagination cursors: the last key of a page, sealed with the key ring so a forged or
// altered cursor is refused with -32602 instead of being trusted, and a cursor from one node is
// good on every node sharing the ring.
#include <mcp/security/key_ring.hpp>

#include <string>
#include <string_view>

namespace mcp::detail {

// `list` names the list the cursor belongs to ("tools", "prompts"…) and `subject` the principal
// it was issued to ("" when anonymous): a cursor of one list, or of another principal, is not
// accepted.
std::string encode_cursor(const KeyRing& keys, std::string_view list, std::string_view subject,
                          std::string_view last_key);
// The last key; throws mcp::InvalidParams for anything the ring did not seal for `list` and
// `subject`.
std::string decode_cursor(const KeyRing& keys, std::string_view list, std::string_view subject,
                          std::string_view cursor);

}  // namespace mcp::detail
