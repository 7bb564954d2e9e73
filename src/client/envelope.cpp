#include "client/envelope.hpp"

#include "json/text_writer.hpp"

#include <charconv>

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
    if (options.roots) {
        caps["roots"] = {{"listChanged", true}};
    } else if (h.roots) {
        caps["roots"] = boost::json::object();  // asked each time: no list of its own changes
    }
    if (options.tasks) caps["extensions"] = {{kTasksExtensionId, boost::json::object()}};
    merge(caps, options.capabilities);
    return caps;
}

boost::json::object capabilities_for_call(boost::json::object declared, const boost::json::object& call) {
    for (const auto& kv : call) {
        if (kv.value().is_null()) {
            declared.erase(kv.key());
        } else {
            declared[kv.key()] = kv.value();
        }
    }
    return declared;
}

std::string envelope_members(std::string_view protocol_version, const boost::json::object& capabilities,
                             const boost::json::object& client_info, std::optional<LogLevel> log_level) {
    boost::json::object meta;
    meta[kVersionKey] = protocol_version;
    meta[kCapabilitiesKey] = capabilities;
    meta[kClientInfoKey] = client_info;
    if (log_level) meta[kLogLevelKey] = to_string(*log_level);
    std::string members;
    append_members(members, meta);
    return members;
}

std::string request_text(std::int64_t id, std::string_view method, const boost::json::object& params,
                         std::string_view members, std::string_view trace) {
    // Written out into one buffer rather than built as a JSON-RPC object and serialized: a request
    // is the hot path. Room for a transport's line end is left.
    std::string text;
    text.reserve(256 + members.size() + trace.size());
    text += R"({"jsonrpc":"2.0","id":)";
    char digits[24];
    text.append(digits, std::to_chars(digits, digits + sizeof digits, id).ptr);
    text += R"(,"method":)";
    append_json(text, method);
    text += R"(,"params":)";
    if (members.empty() && trace.empty()) {
        append_json(text, params);
    } else {
        // The envelope and the trace first in _meta; what _meta held already after them, less the
        // keys they set; then the other params.
        boost::json::object meta;
        boost::json::object rest;
        const boost::json::object* others = &params;
        if (const auto* own_meta = params.if_contains("_meta")) {
            if (own_meta->is_object()) meta = own_meta->as_object();
            if (!members.empty())
                for (auto key : {kVersionKey, kCapabilitiesKey, kClientInfoKey, kLogLevelKey}) meta.erase(key);
            if (!trace.empty())
                for (auto key : {"traceparent", "tracestate"}) meta.erase(key);
            rest = params;
            rest.erase("_meta");
            others = &rest;
        }
        text.append(R"({"_meta":{)").append(members);
        if (!members.empty() && !trace.empty()) text += ',';
        text.append(trace);
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

std::string trace_members(std::string_view traceparent, std::string_view tracestate) {
    std::string members = R"("traceparent":)";
    append_json(members, traceparent);
    if (!tracestate.empty()) {
        members += R"(,"tracestate":)";
        append_json(members, tracestate);
    }
    return members;
}

}  // namespace mcp::detail
