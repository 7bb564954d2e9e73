#include "protocol/era.hpp"
#include "protocol/methods.hpp"
#include "util/json_members.hpp"
#include "util/storage_allocator.hpp"

#include <mcp/protocol/errors.hpp>

namespace mcp::detail {

namespace {

constexpr std::string_view kPrefix = "io.modelcontextprotocol/";
constexpr std::string_view kProtocolVersion = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view kClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view kClientInfo = "io.modelcontextprotocol/clientInfo";
constexpr std::string_view kLogLevel = "io.modelcontextprotocol/logLevel";

const boost::json::object* meta_of(const jsonrpc::Message& m) {
    if (m.params == nullptr) return nullptr;
    const auto* meta = m.params->if_contains("_meta");
    return meta != nullptr && meta->is_object() ? &meta->get_object() : nullptr;
}

[[noreturn]] void invalid(std::string message) { throw InvalidParams(std::move(message)); }

}  // namespace

bool stateless_version_header(std::string_view version) { return !version.empty() && version >= revision::v2026_07_28; }

Era classify_era(const jsonrpc::Message& message, std::string_view protocol_version_header) {
    if (stateless_version_header(protocol_version_header)) return Era::stateless;
    if (message.kind != jsonrpc::Kind::request) return Era::sessions;
    if (const auto* meta = meta_of(message)) {
        for (const auto& kv : *meta) {
            if (kv.key().starts_with(kPrefix)) return Era::stateless;
        }
    }
    if (!protocol_version_header.empty()) return Era::sessions;  // an earlier version, by the check above
    const auto* info = find_method_info(message.method);
    return info != nullptr && !info->exists_in(Era::sessions) ? Era::stateless : Era::sessions;
}

Envelope read_envelope(const jsonrpc::Message& request, const boost::json::storage_ptr& storage) {
    const auto* meta = meta_of(request);
    if (meta == nullptr)
        invalid("Missing required _meta envelope (io.modelcontextprotocol/protocolVersion, clientCapabilities)");
    const auto [version, capabilities, info, log_level] =
        members_named(*meta, std::array{kProtocolVersion, kClientCapabilities, kClientInfo, kLogLevel});

    auto client = std::allocate_shared<ClientState>(StorageAllocator<ClientState>(storage));
    if (version == nullptr) invalid("Missing required _meta key: " + std::string(kProtocolVersion));
    if (!version->is_string()) invalid("Malformed _meta key " + std::string(kProtocolVersion) + ": expected a string");
    client->protocol_version = version->get_string();

    if (capabilities == nullptr) invalid("Missing required _meta key: " + std::string(kClientCapabilities));
    if (!capabilities->is_object())
        invalid("Malformed _meta key " + std::string(kClientCapabilities) + ": expected an object");
    client->capabilities = capabilities->get_object();

    if (info != nullptr) {
        const auto* obj = info->if_object();
        const auto* name = obj != nullptr ? obj->if_contains("name") : nullptr;
        const auto* ver = obj != nullptr ? obj->if_contains("version") : nullptr;
        if (name == nullptr || !name->is_string() || ver == nullptr || !ver->is_string()) {
            invalid("Malformed _meta key " + std::string(kClientInfo) + ": expected {name, version}");
        }
        client->info.name = name->get_string();
        client->info.version = ver->get_string();
        if (const auto* title = obj->if_contains("title"); title && title->is_string())
            client->info.title = title->get_string();
    }

    Envelope envelope;
    if (log_level != nullptr) {
        const auto parsed = log_level->is_string() ? parse_log_level(log_level->get_string()) : std::nullopt;
        if (!parsed) invalid("Malformed _meta key " + std::string(kLogLevel) + ": expected a log level");
        envelope.log_level = parsed;
    }
    envelope.client = std::move(client);
    return envelope;
}

boost::json::value progress_token_of(const jsonrpc::Message& request) {
    if (const auto* meta = meta_of(request)) {
        if (const auto* token = meta->if_contains("progressToken");
            token && (token->is_string() || token->is_int64() || token->is_uint64())) {
            return *token;
        }
    }
    return nullptr;
}

}  // namespace mcp::detail
