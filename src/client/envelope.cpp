#include "client/envelope.hpp"

#include <fmt/format.h>
#include <boost/json/serialize.hpp>

namespace mcp::detail {

namespace {

void merge(boost::json::object& into, const boost::json::object& from) {
    for (const auto& kv : from) {
        auto* existing = into.if_contains(kv.key());
        if (existing != nullptr && existing->is_object() && kv.value().is_object()) {
            merge(existing->as_object(), kv.value().as_object());
        } else {
            into[kv.key()] = kv.value();
        }
    }
}

constexpr std::string_view kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view kClientInfoKey = "io.modelcontextprotocol/clientInfo";
constexpr std::string_view kLogLevelKey = "io.modelcontextprotocol/logLevel";

// An object's members as text, without its braces.
std::string_view members_of(const std::string& object_text) {
    return std::string_view(object_text).substr(1, object_text.size() - 2);
}

}  // namespace

boost::json::object client_capabilities(const ClientOptions& options) {
    boost::json::object caps;
    const auto& h = options.handlers;
    if (h.elicitation) {
        boost::json::object modes{{"form", boost::json::object()}};
        if (h.url_elicitation) modes["url"] = boost::json::object();
        caps["elicitation"] = std::move(modes);
    }
    if (h.sampling) {
        boost::json::object sampling;
        if (h.sampling_tools) sampling["tools"] = boost::json::object();
        caps["sampling"] = std::move(sampling);
    }
    if (options.roots) caps["roots"] = {{"listChanged", true}};
    if (options.tasks) caps["extensions"] = {{kTasksExtensionId, boost::json::object()}};
    merge(caps, options.capabilities);
    return caps;
}

std::string envelope_members(std::string_view protocol_version, const boost::json::object& capabilities,
                             const boost::json::object& client_info, std::optional<LogLevel> log_level) {
    boost::json::object meta;
    meta[kVersionKey] = protocol_version;
    meta[kCapabilitiesKey] = capabilities;
    meta[kClientInfoKey] = client_info;
    if (log_level) meta[kLogLevelKey] = to_string(*log_level);
    return std::string(members_of(boost::json::serialize(meta)));
}

std::string request_text(std::int64_t id, std::string_view method, boost::json::object params,
                         std::string_view members) {
    // Written out rather than built as a JSON-RPC object and serialized: a request is the hot path.
    std::string text = fmt::format(R"({{"jsonrpc":"2.0","id":{},"method":{},"params":)", id,
                                   boost::json::serialize(boost::json::string_view(method)));
    if (members.empty()) {
        text += boost::json::serialize(params);
        text += '}';
        return text;
    }
    boost::json::object meta;
    if (auto it = params.find("_meta"); it != params.end()) {
        if (it->value().is_object()) meta = std::move(it->value().as_object());
        params.erase(it);
    }
    for (auto key : {kVersionKey, kCapabilitiesKey, kClientInfoKey, kLogLevelKey}) meta.erase(key);
    text.append(R"({"_meta":{)").append(members);
    if (!meta.empty()) text.append(",").append(members_of(boost::json::serialize(meta)));
    text += '}';
    if (!params.empty()) text.append(",").append(members_of(boost::json::serialize(params)));
    text += "}}";
    return text;
}

}  // namespace mcp::detail
