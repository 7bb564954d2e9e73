#pragma once
#include <cstddef>
#include <string>

namespace mcp::detail {

// `bytes` random bytes (RAND_bytes) as base64url: visible ASCII, for ids that must not be guessed.
std::string random_token(std::size_t bytes = 18);

}  // namespace mcp::detail
