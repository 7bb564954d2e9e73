#pragma once
// Base64 (RFC 4648 §4, padded) and base64url (§5, unpadded). Decoding is strict: any character
// outside the alphabet, bad padding or non-zero trailing bits is refused.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcp::detail {

std::string base64_encode(std::span<const unsigned char> bytes);
std::string base64url_encode(std::span<const unsigned char> bytes);
std::optional<std::string> base64_decode(std::string_view text);
std::optional<std::string> base64url_decode(std::string_view text);

inline std::span<const unsigned char> as_bytes(std::string_view s) {
    return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}

}  // namespace mcp::detail
