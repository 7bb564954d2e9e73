#pragma once
// UTF-8 checks for text that did not come through the JSON parser (header values echoed in
// error messages), so every JSON text the server writes is valid UTF-8.
#include <string>
#include <string_view>

namespace mcp::detail {

// `text` with each byte that does not start a well-formed sequence (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF) replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

}  // namespace mcp::detail
