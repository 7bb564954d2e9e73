#include <mcp/protocol/revision.hpp>

#include <algorithm>
#include <array>

namespace mcp::revision {

namespace {
constexpr std::array<std::string_view, 3> kLegacy{v2025_11_25, v2025_06_18, v2025_03_26};
constexpr std::array<std::string_view, 1> kModern{v2026_07_28};
}  // namespace

std::span<const std::string_view> legacy() { return kLegacy; }
std::span<const std::string_view> modern() { return kModern; }
bool is_legacy(std::string_view version) { return std::find(kLegacy.begin(), kLegacy.end(), version) != kLegacy.end(); }
bool is_modern(std::string_view version) { return std::find(kModern.begin(), kModern.end(), version) != kModern.end(); }

}  // namespace mcp::revision
