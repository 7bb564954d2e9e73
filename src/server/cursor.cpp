#include "server/cursor.hpp"

#include <mcp/protocol/errors.hpp>

namespace mcp::detail {

namespace {
// Both are authenticated, not encrypted: the purpose is the sealing's associated data.
std::string purpose_of(std::string_view list, std::string_view subject) {
    return "cursor:" + std::string(list) + '\n' + std::string(subject);
}
}  // namespace

std::string encode_cursor(const KeyRing& keys, std::string_view list, std::string_view subject,
                          std::string_view last_key) {
    return keys.seal(purpose_of(list, subject), last_key);
}

std::string decode_cursor(const KeyRing& keys, std::string_view list, std::string_view subject,
                          std::string_view cursor) {
    auto last_key = keys.open(purpose_of(list, subject), cursor);
    if (!last_key) throw InvalidParams("Invalid cursor");
    return std::move(*last_key);
}

}  // namespace mcp::detail
