#pragma once
// Redis Cluster's key slot (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/):
// CRC16 (XMODEM) of the key, or of its hash tag (what lies between the first '{' and the first '}'
// after it, when that is not empty), modulo 16384.
#include <cstdint>
#include <string_view>

namespace mcp::detail {

constexpr std::uint16_t kClusterSlots = 16384;

std::uint16_t key_slot(std::string_view key);

}  // namespace mcp::detail
