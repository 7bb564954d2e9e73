#include "client/envelope.hpp"

#include <fmt/format.h>

#include <boost/json/serialize.hpp>
#include <boost/json/serializer.hpp>
#include <iterator>

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

// Serializes at the end of `out`, without a string of its own.
void drain(std::string& out, boost::json::serializer& writer) {
    char buffer[512];
    while (!writer.done()) out += writer.read(buffer, sizeof buffer);
}

void append_json(std::string& out, const boost::json::object& object) {
    boost::json::serializer writer;
    writer.reset(&object);
    drain(out, writer);
}

void append_json(std::string& out, boost::json::string_view text) {
    boost::json::serializer writer;
    writer.reset(text);
    drain(out, writer);
}

// An object's members at the end of `out`, without its braces.
void append_members(std::string& out, const boost::json::object& object) {
    const auto start = out.size();
    append_json(out, object);
    out.erase(start, 1);
    out.pop_back();
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

std::string request_text(std::int64_t id, std::string_view method, const boost::json::object& params,
                         std::string_view members) {
    // Written out into one buffer rather than built as a JSON-RPC object and serialized: a request
    // is the hot path. Room for a transport's line end is left.
    std::string text;
    text.reserve(256 + members.size());
    fmt::format_to(std::back_inserter(text), R"({{"jsonrpc":"2.0","id":{},"method":)", id);
    append_json(text, boost::json::string_view(method));
    text += R"(,"params":)";
    if (members.empty()) {
        append_json(text, params);
    } else {
        // The envelope first in _meta; what _meta held already after it, less the keys the
        // envelope sets; then the other params.
        boost::json::object meta;
        boost::json::object rest;
        const boost::json::object* others = &params;
        if (const auto* own_meta = params.if_contains("_meta")) {
            if (own_meta->is_object()) meta = own_meta->as_object();
            for (auto key : {kVersionKey, kCapabilitiesKey, kClientInfoKey, kLogLevelKey}) meta.erase(key);
            rest = params;
            rest.erase("_meta");
            others = &rest;
        }
        text.append(R"({"_meta":{)").append(members);
        if (!meta.empty()) {
            text += ',';
            append_members(text, meta);
        }
        text += '}';
        if (!others->empty()) {
            text += ',';
            append_members(text, *others);
        }
        text += '}';
    }
    text += '}';
    return text;
}

}  // namespace mcp::detail
