#pragma once
// Which era a server speaks, from what came back to the probe (server/discover): the rules of the
// 2026-07-28 versioning page ("Backward Compatibility") and of each transport's section. Pure.
//
// - A DiscoverResult: modern, in the newest version both list.
// - A recognized modern error (-32020, -32021, -32022): modern; -32022 names the versions to retry
//   with. Never a fallback to initialize.
// - Any other error, or silence until the probe's timeout (stdio): legacy, initialize.
// - HTTP: a 4xx whose body is no recognized modern error: legacy; then, should initialize fail
//   with 400, 404 or 405, the 2024-11-05 HTTP+SSE transport.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

enum class Verdict {
    modern,        // speak `version`
    legacy,        // initialize, offering `version` first (empty: the newest the client speaks)
    legacy_sse,    // HTTP: the 2024-11-05 HTTP+SSE transport
    incompatible,  // no version both speak
    failed,        // no answer about the era at all (a 5xx): the probe's error stands
};

struct ProbeVerdict {
    Verdict verdict = Verdict::failed;
    std::string version;
    // modern: the probe must go again in `version` (the server refused the one it had).
    bool retry = false;
    // The versions the server listed, when it did.
    std::vector<std::string> server_versions;
};

// Every version mcp::Client speaks, newest first.
std::span<const std::string_view> client_versions();
// 2026-07-28 and later, compared as the spec's dates.
bool is_modern_version(std::string_view version);
// UnsupportedProtocolVersion, MissingRequiredClientCapability, HeaderMismatch.
bool is_modern_error(int code);
// The newest version in both lists (ours newest first).
std::optional<std::string> newest_common(const std::vector<std::string>& theirs, std::span<const std::string> ours);

// `requested`: the version the probe carried; `ours`: the versions the client may speak.
ProbeVerdict classify_discover_result(const boost::json::object& result, std::string_view requested,
                                      std::span<const std::string> ours);
ProbeVerdict classify_probe_error(int code, const boost::json::value& data, std::string_view requested,
                                  std::span<const std::string> ours);
ProbeVerdict classify_probe_silence();

enum class HttpStage { probe, initialize };
// An HTTP response other than 2xx to the probe, or to the initialize that followed a legacy verdict.
ProbeVerdict classify_probe_http(int status, std::string_view body, HttpStage stage, std::string_view requested,
                                 std::span<const std::string> ours);

}  // namespace mcp::detail
