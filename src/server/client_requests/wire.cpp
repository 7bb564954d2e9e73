#include "server/client_requests/wire.hpp"

#include "util/json_number.hpp"
#include "util/random.hpp"

#include <boost/json/array.hpp>

#include <stdexcept>

namespace mcp::detail {

namespace {

[[noreturn]] void malformed(const std::string& what) { throw std::invalid_argument(what); }

boost::json::object elicitation_params(const ElicitRequest& r) {
    return {{"message", r.message}, {"requestedSchema", r.schema.to_json()}};
}

}  // namespace

boost::json::object url_elicitation_params(const UrlElicitRequest& r) {
    return {{"mode", "url"},
            {"message", r.message},
            {"url", r.url},
            {"elicitationId", r.elicitation_id.empty() ? random_token(12) : r.elicitation_id}};
}

namespace {

boost::json::object sampling_params(const SamplingRequest& r) {
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

const boost::json::object& object_of(const boost::json::value& v, const char* what) {
    if (!v.is_object()) malformed(std::string(what) + " must be an object");
    return v.get_object();
}

std::string string_of(const boost::json::object& o, const char* key, bool required) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || v->is_null()) {
        if (required) malformed(std::string("missing \"") + key + "\"");
        return {};
    }
    if (!v->is_string()) malformed(std::string("\"") + key + "\" must be a string");
    return std::string(v->get_string());
}

std::optional<Content> content_of(const boost::json::object& block) {
    const auto type = string_of(block, "type", true);
    if (type == "text") return text(string_of(block, "text", true));
    if (type == "image") return image_base64(string_of(block, "data", true), string_of(block, "mimeType", true));
    if (type == "audio") return audio_base64(string_of(block, "data", true), string_of(block, "mimeType", true));
    return std::nullopt;  // tool_use, tool_result…: in SamplingResult::raw
}

ElicitResult parse_elicitation(const boost::json::value& v) {
    const auto& o = object_of(v, "an elicitation result");
    const auto action = string_of(o, "action", true);
    ElicitResult r;
    if (action == "accept")
        r.action = ElicitAction::accept;
    else if (action == "decline")
        r.action = ElicitAction::decline;
    else if (action == "cancel")
        r.action = ElicitAction::cancel;
    else
        malformed("\"action\" must be accept, decline or cancel");
    if (const auto* content = o.if_contains("content"); content && !content->is_null())
        r.content = object_of(*content, "\"content\"");
    return r;
}

SamplingResult parse_sampling(const boost::json::value& v) {
    const auto& o = object_of(v, "a sampling result");
    SamplingResult r;
    const auto role = string_of(o, "role", true);
    if (role != "assistant" && role != "user") malformed("\"role\" must be assistant or user");
    r.role = role == "user" ? Role::user : Role::assistant;
    const auto* content = o.if_contains("content");
    if (content == nullptr) malformed("missing \"content\"");
    if (content->is_array()) {
        for (const auto& block : content->get_array()) {
            if (auto c = content_of(object_of(block, "a content block"))) r.content.push_back(std::move(*c));
        }
    } else if (auto c = content_of(object_of(*content, "\"content\""))) {
        r.content.push_back(std::move(*c));
    }
    r.model = string_of(o, "model", false);
    r.stop_reason = string_of(o, "stopReason", false);
    r.raw = o;
    return r;
}

std::vector<Root> parse_roots(const boost::json::value& v) {
    const auto& o = object_of(v, "a roots result");
    const auto* roots = o.if_contains("roots");
    if (roots == nullptr || !roots->is_array()) malformed("\"roots\" must be an array");
    std::vector<Root> out;
    for (const auto& item : roots->get_array()) {
        const auto& root = object_of(item, "a root");
        out.push_back(Root{string_of(root, "uri", true), string_of(root, "name", false)});
    }
    return out;
}

}  // namespace

std::string KeyCounter::next(InputKind kind) {
    static constexpr const char* names[] = {"elicitation", "elicitation", "sampling", "roots"};
    return std::string(names[static_cast<int>(kind)]) + "-" + std::to_string(++counts_[kind]);
}

WireRequest to_wire(const InputRequest& request, KeyCounter& keys) {
    return std::visit(
        [&](const auto& r) -> WireRequest {
            using R = std::decay_t<decltype(r)>;
            WireRequest w;
            if constexpr (std::is_same_v<R, ElicitRequest>) {
                w = {InputKind::elicitation, r.key, "elicitation/create", elicitation_params(r), "elicitation"};
            } else if constexpr (std::is_same_v<R, UrlElicitRequest>) {
                w = {InputKind::url_elicitation, r.key, "elicitation/create", url_elicitation_params(r),
                     "elicitation.url"};
            } else if constexpr (std::is_same_v<R, SamplingRequest>) {
                w = {InputKind::sampling, r.key, "sampling/createMessage", sampling_params(r),
                     r.tools.empty() ? "sampling" : "sampling.tools"};
            } else {
                w = {InputKind::roots, r.key, "roots/list", {}, "roots"};
            }
            if (w.key.empty()) w.key = keys.next(w.kind);
            return w;
        },
        request);
}

InputAnswer parse_answer(const WireRequest& request, const boost::json::value& result) {
    switch (request.kind) {
        case InputKind::elicitation:
        case InputKind::url_elicitation: return parse_elicitation(result);
        case InputKind::sampling: return parse_sampling(result);
        case InputKind::roots: return parse_roots(result);
    }
    malformed("unknown request kind");
}

boost::json::object capability_object(std::string_view path) {
    boost::json::object root;
    boost::json::object* node = &root;
    while (true) {
        const auto dot = path.find('.');
        auto& child = (*node)[path.substr(0, dot)];
        child = boost::json::object();
        node = &child.as_object();
        if (dot == std::string_view::npos) return root;
        path.remove_prefix(dot + 1);
    }
}

std::string_view kind_name(InputKind kind) {
    switch (kind) {
        case InputKind::sampling: return "sampling";
        case InputKind::roots: return "roots";
        default: return "elicitation";
    }
}

}  // namespace mcp::detail
