#include "util/random.hpp"

#include "util/base64.hpp"

#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

namespace mcp::detail {

std::string random_token(std::size_t bytes) {
    std::vector<unsigned char> buffer(bytes);
    if (RAND_bytes(buffer.data(), static_cast<int>(buffer.size())) != 1) throw std::runtime_error("RAND_bytes failed");
    return base64url_encode(buffer);
}

}  // namespace mcp::detail
