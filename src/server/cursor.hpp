#pragma once
// Opaque pagination cursors: the last key of a page, tagged with an HMAC so a forged or altered
// cursor is refused with -32602 instead of being trusted.
#include <array>
#include <string>
#include <string_view>

namespace mcp::detail {

class CursorCodec {
public:
    // A fresh random key.
    CursorCodec();

    // `list` names the list the cursor belongs to ("tools", "prompts"…); a cursor of one list
    // is not accepted by another.
    std::string encode(std::string_view list, std::string_view last_key) const;
    // The last key; throws mcp::InvalidParams for anything this codec did not produce.
    std::string decode(std::string_view list, std::string_view cursor) const;

private:
    std::array<unsigned char, 32> key_{};
};

}  // namespace mcp::detail
