#pragma once
// The functions behind each MCP method (see dispatch.cpp for the table).
#include "protocol/params.hpp"
#include "server/call.hpp"
#include "server/core.hpp"
#include "server/cursor.hpp"
#include "server/dispatch.hpp"
#include "server/scope_guard.hpp"

namespace mcp::detail {

boost::json::value initialize(ServerCore& core, CallState& call);
boost::json::value ping(ServerCore& core, CallState& call);
boost::json::value set_log_level(ServerCore& core, CallState& call);
void initialized(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session);
void cancelled(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session);

boost::json::value list_tools(ServerCore& core, CallState& call);
boost::json::value call_tool(ServerCore& core, CallState& call);
bool tool_runs_inline(const ServerCore& core, const CallState& call);
std::vector<std::string> tool_scopes(const ServerCore& core, std::string_view name);

boost::json::value list_prompts(ServerCore& core, CallState& call);
boost::json::value get_prompt(ServerCore& core, CallState& call);
bool prompt_runs_inline(const ServerCore& core, const CallState& call);
std::vector<std::string> prompt_scopes(const ServerCore& core, std::string_view name);

boost::json::value list_resources(ServerCore& core, CallState& call);
boost::json::value list_resource_templates(ServerCore& core, CallState& call);
boost::json::value read_resource(ServerCore& core, CallState& call);
bool resource_runs_inline(const ServerCore& core, const CallState& call);
// A fixed resource's scopes, else those of the first template that matches the URI.
std::vector<std::string> resource_scopes(const ServerCore& core, std::string_view uri);
boost::json::value subscribe(ServerCore& core, CallState& call);
boost::json::value unsubscribe(ServerCore& core, CallState& call);
// A subscribed URI is kept as long as its session or listen stream: longer than 8 KiB is refused
// with InvalidParams.
void check_subscribed_uri(std::string_view uri);

boost::json::value complete(ServerCore& core, CallState& call);

// A method an application or an extension registered (custom_methods.hpp).
boost::json::value call_method(ServerCore& core, CallState& call);
bool method_runs_inline(const ServerCore& core, const CallState& call);

boost::json::value discover(ServerCore& core, CallState& call);

// Tasks (server/tasks/, docs/adr/0021-tasks.md).
boost::json::value get_task(ServerCore& core, CallState& call);
boost::json::value update_task(ServerCore& core, CallState& call);
boost::json::value cancel_task(ServerCore& core, CallState& call);
boost::json::value task_result(ServerCore& core, CallState& call);
boost::json::value list_tasks(ServerCore& core, CallState& call);
// subscriptions/listen: acknowledges, then streams change notifications until the call is
// cancelled (stream closed, notifications/cancelled) or the server shuts down.
void start_listen(ServerCore& core, const std::shared_ptr<CallState>& call);
void end_listens(ServerCore& core);

inline const std::string& key_of(const ToolEntry& e) { return e.def.spec.name; }
inline const std::string& key_of(const PromptEntry& e) { return e.def.spec.name; }
inline const std::string& key_of(const ResourceEntry& e) { return e.def.uri; }
inline const std::string& key_of(const TemplateEntry& e) { return e.def.uri_template; }

// Whether the entry that the call's entity param names was declared runs_inline (for the
// dispatcher's InlineProbe); false when it names none.
template <class Registry>
bool names_inline_entry(const Registry& registry, const CallState& call) {
    const auto name = target_of(call);
    if (name.empty()) return false;
    const auto entry = registry.find(name);
    return entry && entry->def.spec.runs_inline;
}

// What the entry `key` names declares in required_scopes; empty when there is no such entry.
template <class Registry>
std::vector<std::string> declared_scopes(const Registry& registry, std::string_view key) {
    const auto entry = registry.find(key);
    return entry ? entry->def.spec.required_scopes : std::vector<std::string>();
}

// The capabilities this server declares (initialize result).
boost::json::object server_capabilities(const ServerCore& core);

// One page of a registry as {"<list>": [...], "nextCursor"?}, each item the entry's wire form.
template <class Entry>
boost::json::value list_page(ServerCore& core, CallState& call, const Registry<Entry>& registry,
                             std::string_view list) {
    const auto cursor = bind_params<ListParams>(call.params()).cursor;
    const auto* principal = call.exchange->principal().get();
    const std::string_view subject = principal != nullptr ? std::string_view(principal->subject) : "";
    const std::string after =
        cursor && !cursor->empty() ? decode_cursor(core.keys(), list, subject, *cursor) : std::string();
    auto page = registry.page(after, core.options.page_size);
    // Built in the request's arena (when it has one): copying the entries there is a bump
    // allocation per node and releasing them is free.
    boost::json::array items(call.scratch);
    items.reserve(page.items.size());
    const bool filter = principal != nullptr && !core.options.list_unauthorized;
    for (const auto& entry : page.items) {
        if (!filter || holds_scopes(*principal, entry->def.spec.required_scopes)) items.push_back(entry->wire);
    }
    boost::json::object result(call.scratch);
    result[list] = std::move(items);
    if (page.more && !page.items.empty())
        result["nextCursor"] = encode_cursor(core.keys(), list, subject, key_of(*page.items.back()));
    return result;
}

}  // namespace mcp::detail
