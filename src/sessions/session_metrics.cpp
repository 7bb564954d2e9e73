#include "sessions/session_metrics.hpp"

#include <mcp/protocol/revision.hpp>

#include <array>
#include <atomic>
#include <string>
#include <vector>

namespace mcp::detail {

SessionMetrics& session_metrics() {
    using metrics::Type;
    auto& r = metrics::registry();
    static SessionMetrics m{
        r.family("mcp_sessions_created_total", "2025-era HTTP sessions created by initialize", Type::counter)
            .counter({}),
        r.family("mcp_sessions_expired_total",
                 "2025-era HTTP sessions this node ended for being idle past --session-timeout (with a shared "
                 "store: found gone from it)",
                 Type::counter)
            .counter({}),
        r.family("mcp_sse_resumptions_total", "SSE streams resumed with Last-Event-ID", Type::counter).counter({})};
    return m;
}

namespace {

constexpr std::string_view kErrorTypes[] = {"", "timeout", "evicted"};  // by SessionEnd

// A session-era revision's index, or the revisions' count for any other (labelled "").
std::size_t version_of(std::string_view version) {
    const auto versions = revision::session_era();
    for (std::size_t i = 0; i < versions.size(); ++i) {
        if (versions[i] == version) return i;
    }
    return versions.size();
}

}  // namespace

void observe_session_end(SessionEnd how, std::string_view protocol_version, std::chrono::nanoseconds held) {
    static auto& family = metrics::registry().family(
        "mcp_server_session_duration_seconds",
        "How long 2025-era sessions lasted on this node, from holding one to its end "
        "(OpenTelemetry mcp.server.session.duration)",
        metrics::Type::histogram, {"error_type", "mcp_protocol_version"}, metrics::semconv_buckets());
    static std::vector<std::array<std::atomic<metrics::Histogram*>, std::size(kErrorTypes)>> series(
        revision::session_era().size() + 1);
    const auto error_type = static_cast<std::size_t>(how);
    const auto version = version_of(protocol_version);
    metrics::resolve_once(series[version][error_type], [&]() -> metrics::Histogram& {
        const auto versions = revision::session_era();
        return family.histogram({std::string(kErrorTypes[error_type]),
                                 version < versions.size() ? std::string(versions[version]) : std::string()});
    }).observe(held);
}

}  // namespace mcp::detail
