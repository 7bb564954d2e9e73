#include "server/operation_metrics.hpp"

#include "protocol/methods.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/revision.hpp>
#include <mcp/server/interceptor.hpp>

#include <memory>

namespace mcp::detail {

namespace {

// error.type: none for a success, the conventions' "tool_error" for an isError result, ours for a
// call the client cancelled, else the JSON-RPC code (also rpc.response.status_code) of those the
// framework sends, and "_OTHER" for any other code an application chose.
struct ErrorType {
    std::string_view type;
    int code = 0;  // 0: not a JSON-RPC error
};
constexpr ErrorType kErrorTypes[] = {
    {""},
    {"tool_error"},
    {"cancelled"},
    {"-32700", error_code::parse_error},
    {"-32600", error_code::invalid_request},
    {"-32601", error_code::method_not_found},
    {"-32602", error_code::invalid_params},
    {"-32603", error_code::internal_error},
    {"-32002", error_code::resource_not_found},
    {"-32042", error_code::url_elicitation_required},
    {"-32020", error_code::header_mismatch},
    {"-32021", error_code::missing_required_client_capability},
    {"-32022", error_code::unsupported_protocol_version},
    {"-32003", error_code::forbidden},
    {"-32029", error_code::rate_limited},
    {"_OTHER"},
};
constexpr std::size_t kErrorTypeCount = std::size(kErrorTypes);
constexpr std::size_t kOtherError = kErrorTypeCount - 1;

std::size_t error_type_of(Outcome outcome, int code) {
    switch (outcome) {
        case Outcome::ok:
        case Outcome::input_required: return 0;
        case Outcome::tool_error: return 1;
        case Outcome::cancelled: return 2;
        default: break;
    }
    for (std::size_t i = 3; i < kOtherError; ++i) {
        if (kErrorTypes[i].code == code) return i;
    }
    return kOtherError;
}

// The revisions served, then "" for a request answered before one was known.
std::vector<std::string_view> make_versions() {
    std::vector<std::string_view> versions(revision::session_era().begin(), revision::session_era().end());
    versions.insert(versions.end(), revision::stateless_era().begin(), revision::stateless_era().end());
    versions.emplace_back();
    return versions;
}

const std::vector<std::string_view>& versions() {
    static const auto all = make_versions();
    return all;
}

std::size_t version_of(std::string_view version) {
    const auto& all = versions();
    for (std::size_t i = 0; i + 1 < all.size(); ++i) {
        if (all[i] == version) return i;
    }
    return all.size() - 1;
}

metrics::Family& family() {
    static auto& family = metrics::registry().family(
        "mcp_server_operation_duration_seconds",
        "MCP request duration as the server observed it, from receiving it to sending its answer "
        "(OpenTelemetry mcp.server.operation.duration)",
        metrics::Type::histogram,
        {"mcp_method_name", "gen_ai_operation_name", "gen_ai_tool_name", "gen_ai_prompt_name", "error_type",
         "rpc_response_status_code", "mcp_protocol_version"},
        metrics::semconv_buckets());
    return family;
}

}  // namespace

OperationMetrics::OperationMetrics(std::string_view method, std::string_view tool, std::string_view prompt)
    : method_(method), tool_(tool), prompt_(prompt), series_(kErrorTypeCount * versions().size()) {}

void OperationMetrics::observe(Outcome outcome, int error_code, std::string_view protocol_version,
                               std::chrono::nanoseconds duration) const {
    const auto error_type = error_type_of(outcome, error_code);
    const auto version = version_of(protocol_version);
    auto& slot = series_[error_type * versions().size() + version];
    metrics::resolve_once(slot, [&]() -> metrics::Histogram& { return make(error_type, version); }).observe(duration);
}

metrics::Histogram& OperationMetrics::make(std::size_t error_type, std::size_t version) const {
    const auto& error = kErrorTypes[error_type];
    const std::string_view status_code = error.code != 0 ? error.type : std::string_view();
    return family().histogram({method_, method_ == "tools/call" ? "execute_tool" : "", tool_, prompt_,
                               std::string(error.type), std::string(status_code), std::string(versions()[version])});
}

const OperationMetrics& method_operation_metrics(const MethodInfo* method) {
    static const auto table = [] {
        std::vector<std::unique_ptr<OperationMetrics>> all;
        for (const auto& info : all_methods()) all.push_back(std::make_unique<OperationMetrics>(info.name, "", ""));
        all.push_back(std::make_unique<OperationMetrics>("unknown", "", ""));
        return all;
    }();
    const auto methods = all_methods();
    return *table[method != nullptr ? static_cast<std::size_t>(method - methods.data()) : methods.size()];
}

}  // namespace mcp::detail
