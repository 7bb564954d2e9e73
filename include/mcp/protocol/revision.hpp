#pragma once
// Protocol revisions and the two eras mcp-cpp serves on one endpoint.
#include <span>
#include <string_view>

namespace mcp {

// sessions: 2025-11-25 and older, with initialize, sessions and server->client requests.
// stateless: 2026-07-28, where every request carries its own _meta envelope.
enum class Era { sessions, stateless };

namespace revision {
inline constexpr std::string_view v2024_11_05 = "2024-11-05";  // spoken by mcp::Client, not served
inline constexpr std::string_view v2025_03_26 = "2025-03-26";
inline constexpr std::string_view v2025_06_18 = "2025-06-18";
inline constexpr std::string_view v2025_11_25 = "2025-11-25";
inline constexpr std::string_view v2026_07_28 = "2026-07-28";

inline constexpr std::string_view latest_session_era = v2025_11_25;
// What a session-era HTTP request without MCP-Protocol-Version is assumed to speak.
inline constexpr std::string_view default_session_era = v2025_03_26;

// Newest first.
std::span<const std::string_view> session_era();
std::span<const std::string_view> stateless_era();
bool is_session_era(std::string_view version);
bool is_stateless_era(std::string_view version);
}  // namespace revision

}  // namespace mcp
