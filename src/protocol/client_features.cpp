#include <mcp/protocol/client_features.hpp>

#include "protocol/wire_reader.hpp"

#include <boost/json/array.hpp>

#include <stdexcept>

namespace mcp {

namespace {

[[noreturn]] void malformed(const std::string& what) { throw std::invalid_argument(what); }

// A block of a sampling message or result; nothing for the kinds not modelled here (tool_use,
// tool_result), which stay in `raw`.
std::optional<Content> sampling_content(const boost::json::value& block) {
    const auto type = detail::required_string(detail::object_of(block, "a content block"), "type");
    if (type != "text" && type != "image" && type != "audio") return std::nullopt;
    return from_wire<Content>(block);
}

// One block or an array of blocks.
std::vector<Content> sampling_contents(const boost::json::value& content) {
    std::vector<Content> out;
    if (content.is_array()) {
        for (const auto& block : content.get_array()) {
            if (auto c = sampling_content(block)) out.push_back(std::move(*c));
        }
    } else if (auto c = sampling_content(content)) {
        out.push_back(std::move(*c));
    }
    return out;
}

Role role_of(const boost::json::object& o) {
    const auto role = parse_role(detail::required_string(o, "role"));
    if (!role) malformed("\"role\" must be \"user\" or \"assistant\"");
    return *role;
}

}  // namespace

std::string SamplingResult::text() const {
    std::string out;
    for (const auto& c : content) {
        if (const auto* t = std::get_if<TextContent>(&c)) out += t->text;
    }
    return out;
}

boost::json::object to_wire(const SamplingRequest& r) {
    boost::json::array messages;
    for (const auto& m : r.messages)
        messages.push_back(boost::json::object{{"role", to_string(m.role)}, {"content", to_wire(m.content)}});
    boost::json::object params{{"messages", std::move(messages)}, {"maxTokens", r.max_tokens}};
    if (!r.system_prompt.empty()) params["systemPrompt"] = r.system_prompt;
    if (r.temperature) params["temperature"] = *r.temperature;
    if (!r.stop_sequences.empty()) {
        boost::json::array stops;
        for (const auto& s : r.stop_sequences) stops.emplace_back(s);
        params["stopSequences"] = std::move(stops);
    }
    if (r.model_preferences) {
        const auto& p = *r.model_preferences;
        boost::json::object prefs;
        if (!p.hints.empty()) {
            boost::json::array hints;
            for (const auto& h : p.hints) hints.push_back(boost::json::object{{"name", h}});
            prefs["hints"] = std::move(hints);
        }
        if (p.cost_priority) prefs["costPriority"] = *p.cost_priority;
        if (p.speed_priority) prefs["speedPriority"] = *p.speed_priority;
        if (p.intelligence_priority) prefs["intelligencePriority"] = *p.intelligence_priority;
        params["modelPreferences"] = std::move(prefs);
    }
    if (!r.tools.empty()) {
        boost::json::array tools;
        for (const auto& t : r.tools) tools.push_back(t);
        params["tools"] = std::move(tools);
    }
    return params;
}

boost::json::object to_wire(const ElicitResult& r) {
    static constexpr const char* actions[] = {"accept", "decline", "cancel"};
    boost::json::object out{{"action", actions[static_cast<int>(r.action)]}};
    if (r.accepted()) out["content"] = r.content;
    return out;
}

boost::json::object to_wire(const SamplingResult& r) {
    boost::json::object out = r.raw;
    out["role"] = to_string(r.role);
    if (r.content.size() == 1) {
        out["content"] = to_wire(r.content.front());
    } else if (!r.content.empty()) {
        boost::json::array blocks;
        for (const auto& c : r.content) blocks.push_back(to_wire(c));
        out["content"] = std::move(blocks);
    }
    if (!r.model.empty()) out["model"] = r.model;
    if (!r.stop_reason.empty()) out["stopReason"] = r.stop_reason;
    return out;
}

boost::json::object to_wire(const std::vector<Root>& roots) {
    boost::json::array list;
    for (const auto& root : roots) {
        boost::json::object o{{"uri", root.uri}};
        if (!root.name.empty()) o["name"] = root.name;
        list.push_back(std::move(o));
    }
    return {{"roots", std::move(list)}};
}

template <>
Elicitation from_wire<Elicitation>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "elicitation/create params");
    Elicitation e;
    e.message = detail::required_string(o, "message");
    const auto mode = detail::optional_string(o, "mode");
    if (mode == "url") {
        e.mode = ElicitMode::url;
        e.url = detail::required_string(o, "url");
        e.elicitation_id = detail::required_string(o, "elicitationId");
    } else if (mode.empty() || mode == "form") {
        e.requested_schema = detail::optional_object(o, "requestedSchema");
    } else {
        malformed("unknown elicitation mode \"" + mode + "\"");
    }
    return e;
}

template <>
SamplingRequest from_wire<SamplingRequest>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "sampling/createMessage params");
    SamplingRequest r;
    const auto* messages = detail::optional_array(o, "messages");
    if (messages == nullptr) malformed("missing \"messages\"");
    for (const auto& item : *messages) {
        const auto& m = detail::object_of(item, "a sampling message");
        const auto role = role_of(m);
        const auto* content = m.if_contains("content");
        if (content == nullptr) malformed("missing \"content\"");
        for (auto& c : sampling_contents(*content)) r.messages.push_back(SamplingMessage{role, std::move(c)});
    }
    r.system_prompt = detail::optional_string(o, "systemPrompt");
    if (const auto* prefs = o.if_contains("modelPreferences"); prefs != nullptr && !prefs->is_null()) {
        const auto& p = detail::object_of(*prefs, "\"modelPreferences\"");
        ModelPreferences mp;
        if (const auto* hints = detail::optional_array(p, "hints")) {
            for (const auto& h : *hints)
                mp.hints.push_back(detail::optional_string(detail::object_of(h, "a hint"), "name"));
        }
        mp.cost_priority = detail::optional_number(p, "costPriority");
        mp.speed_priority = detail::optional_number(p, "speedPriority");
        mp.intelligence_priority = detail::optional_number(p, "intelligencePriority");
        r.model_preferences = std::move(mp);
    }
    const auto max_tokens = detail::optional_integer(o, "maxTokens");
    if (!max_tokens) malformed("missing \"maxTokens\"");
    r.max_tokens = static_cast<int>(*max_tokens);
    r.temperature = detail::optional_number(o, "temperature");
    if (const auto* stops = detail::optional_array(o, "stopSequences")) {
        for (const auto& s : *stops) {
            if (!s.is_string()) malformed("\"stopSequences\" must hold strings");
            r.stop_sequences.emplace_back(s.get_string());
        }
    }
    if (const auto* tools = detail::optional_array(o, "tools")) {
        for (const auto& t : *tools) r.tools.push_back(detail::object_of(t, "a tool"));
    }
    r.raw = o;
    return r;
}

template <>
ElicitResult from_wire<ElicitResult>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "an elicitation result");
    const auto action = detail::required_string(o, "action");
    ElicitResult r;
    if (action == "accept")
        r.action = ElicitAction::accept;
    else if (action == "decline")
        r.action = ElicitAction::decline;
    else if (action == "cancel")
        r.action = ElicitAction::cancel;
    else
        malformed("\"action\" must be accept, decline or cancel");
    r.content = detail::optional_object(o, "content");
    return r;
}

template <>
SamplingResult from_wire<SamplingResult>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a sampling result");
    SamplingResult r;
    r.role = role_of(o);
    const auto* content = o.if_contains("content");
    if (content == nullptr) malformed("missing \"content\"");
    r.content = sampling_contents(*content);
    r.model = detail::optional_string(o, "model");
    r.stop_reason = detail::optional_string(o, "stopReason");
    r.raw = o;
    return r;
}

template <>
std::vector<Root> from_wire<std::vector<Root>>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "a roots result");
    const auto* roots = detail::optional_array(o, "roots");
    if (roots == nullptr) malformed("\"roots\" must be an array");
    std::vector<Root> out;
    for (const auto& item : *roots) {
        const auto& root = detail::object_of(item, "a root");
        out.push_back(Root{detail::required_string(root, "uri"), detail::optional_string(root, "name")});
    }
    return out;
}

}  // namespace mcp
