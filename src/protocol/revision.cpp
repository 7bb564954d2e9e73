#include <mcp/protocol/revision.hpp>

#include <algorithm>
#include <array>

namespace mcp::revision {

namespace {
constexpr std::array<std::string_view, 3> kSessionEra{v2025_11_25, v2025_06_18, v2025_03_26};
constexpr std::array<std::string_view, 1> kStatelessEra{v2026_07_28};
}  // namespace

std::span<const std::string_view> session_era() { return kSessionEra; }
std::span<const std::string_view> stateless_era() { return kStatelessEra; }
bool is_session_era(std::string_view version) {
    return std::find(kSessionEra.begin(), kSessionEra.end(), version) != kSessionEra.end();
}
bool is_stateless_era(std::string_view version) {
    return std::find(kStatelessEra.begin(), kStatelessEra.end(), version) != kStatelessEra.end();
}

}  // namespace mcp::revision
