#include "client/envelope.hpp"

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

void add_envelope(boost::json::object& params, const Envelope& envelope) {
    auto& slot = params["_meta"];
    if (!slot.is_object()) slot = boost::json::object();
    auto& meta = slot.as_object();
    meta["io.modelcontextprotocol/protocolVersion"] = envelope.protocol_version;
    meta["io.modelcontextprotocol/clientCapabilities"] = envelope.capabilities;
    meta["io.modelcontextprotocol/clientInfo"] = envelope.client_info;
    if (envelope.log_level) meta["io.modelcontextprotocol/logLevel"] = to_string(*envelope.log_level);
}

}  // namespace mcp::detail
