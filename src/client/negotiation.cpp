#include "client/negotiation.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/revision.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>
#include <array>

namespace mcp::detail {

namespace {

constexpr std::array<std::string_view, 5> kClientVersions{
    revision::v2026_07_28, revision::v2025_11_25, revision::v2025_06_18, revision::v2025_03_26, revision::v2024_11_05};

std::vector<std::string> strings_of(const boost::json::value* list) {
    std::vector<std::string> out;
    if (list == nullptr || !list->is_array()) return out;
    for (const auto& v : list->get_array()) {
        if (v.is_string()) out.emplace_back(v.get_string());
    }
    return out;
}

// The server named the versions it speaks: the newest both speak decides the era.
ProbeVerdict select(std::vector<std::string> theirs, std::string_view requested, std::span<const std::string> ours) {
    ProbeVerdict v;
    const auto common = newest_common(theirs, ours);
    v.server_versions = std::move(theirs);
    if (!common) {
        v.verdict = Verdict::incompatible;
    } else if (is_modern_version(*common)) {
        v.verdict = Verdict::modern;
        v.retry = *common != requested;
        v.version = *common;
    } else {
        v.verdict = Verdict::legacy;
        v.version = *common;
    }
    return v;
}

}  // namespace

std::span<const std::string_view> client_versions() { return kClientVersions; }

bool is_modern_version(std::string_view version) { return version >= revision::v2026_07_28; }

bool is_modern_error(int code) {
    return code == error_code::unsupported_protocol_version || code == error_code::missing_required_client_capability ||
           code == error_code::header_mismatch;
}

std::optional<std::string> newest_common(const std::vector<std::string>& theirs, std::span<const std::string> ours) {
    for (const auto& v : ours) {
        if (std::find(theirs.begin(), theirs.end(), v) != theirs.end()) return v;
    }
    return std::nullopt;
}

ProbeVerdict classify_discover_result(const boost::json::object& result, std::string_view requested,
                                      std::span<const std::string> ours) {
    // A 2026 server's result always lists its versions; a result without the list is a 2025
    // server's answer to any request it does not know (an empty result, as some test servers give).
    const auto* listed = result.if_contains("supportedVersions");
    if (listed == nullptr || !listed->is_array()) return ProbeVerdict{Verdict::legacy, {}, false, {}};
    auto theirs = strings_of(listed);
    // A server that lists nothing, or lists the version asked for, speaks it.
    if (theirs.empty() || std::find(theirs.begin(), theirs.end(), requested) != theirs.end()) {
        return ProbeVerdict{Verdict::modern, std::string(requested), false, std::move(theirs)};
    }
    return select(std::move(theirs), requested, ours);
}

ProbeVerdict classify_probe_error(int code, const boost::json::value& data, std::string_view requested,
                                  std::span<const std::string> ours) {
    if (code == error_code::unsupported_protocol_version) {
        const auto* d = data.if_object();
        auto v = select(strings_of(d != nullptr ? d->if_contains("supported") : nullptr), requested, ours);
        // The probe was refused: a modern verdict sends it again, even in the version it named.
        if (v.verdict == Verdict::modern) v.retry = true;
        return v;
    }
    // Modern, but refusing something else about the request: the era stands.
    if (is_modern_error(code)) return ProbeVerdict{Verdict::modern, std::string(requested), false, {}};
    return ProbeVerdict{Verdict::legacy, {}, false, {}};
}

ProbeVerdict classify_probe_silence() { return ProbeVerdict{Verdict::legacy, {}, false, {}}; }

ProbeVerdict classify_probe_http(int status, std::string_view body, HttpStage stage, std::string_view requested,
                                 std::span<const std::string> ours) {
    boost::system::error_code ec;
    const auto parsed = boost::json::parse(body, ec);
    if (!ec && parsed.is_object()) {
        const auto* error = parsed.as_object().if_contains("error");
        const auto* e = error != nullptr ? error->if_object() : nullptr;
        const auto* code = e != nullptr ? e->if_contains("code") : nullptr;
        if (code != nullptr && code->is_int64() && is_modern_error(static_cast<int>(code->get_int64()))) {
            const auto* data = e->if_contains("data");
            return classify_probe_error(static_cast<int>(code->get_int64()), data != nullptr ? *data : nullptr,
                                        requested, ours);
        }
    }
    if (stage == HttpStage::initialize)
        return ProbeVerdict{
            status == 400 || status == 404 || status == 405 ? Verdict::legacy_sse : Verdict::failed, {}, false, {}};
    return ProbeVerdict{status >= 400 && status < 500 ? Verdict::legacy : Verdict::failed, {}, false, {}};
}

}  // namespace mcp::detail
