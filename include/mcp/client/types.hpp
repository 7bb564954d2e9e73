#pragma once
// What a client reads from a server besides the content types (mcp/protocol/content.hpp): the
// listed tools, prompts, resources and templates, tasks, progress and log messages. Schemas are
// kept verbatim, never dereferenced.
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

struct Tool {
    std::string name;
    std::string title;
    std::string description;
    boost::json::object input_schema;                  // verbatim
    std::optional<boost::json::object> output_schema;  // verbatim; structuredContent is checked against it
    ToolAnnotations annotations;
    // execution.taskSupport: "forbidden" (also when absent), "optional" or "required".
    std::string task_support = "forbidden";
    std::vector<Icon> icons;
    boost::json::object meta;
};

struct Prompt {
    std::string name;
    std::string title;
    std::string description;
    std::vector<PromptArgument> arguments;
    std::vector<Icon> icons;
    boost::json::object meta;
};

// A listed resource: what a resource link carries (schema.ts: ResourceLink extends Resource).
using Resource = ResourceLink;

struct ResourceTemplate {
    std::string uri_template;
    std::string name;
    std::string title;
    std::string description;
    std::string mime_type;
    std::vector<Icon> icons;
    Annotations annotations;
    boost::json::object meta;
};

// One page of a listing.
template <class T>
struct Page {
    std::vector<T> items;
    std::optional<std::string> next_cursor;
};

// What completion/complete suggests.
struct CompletionResult {
    std::vector<std::string> values;
    std::optional<std::int64_t> total;
    bool has_more = false;
};

// What completion/complete completes: an argument of a prompt or a variable of a resource template.
struct CompletionRef {
    static CompletionRef prompt(std::string name) { return {"ref/prompt", std::move(name)}; }
    static CompletionRef resource_template(std::string uri_template) {
        return {"ref/resource", std::move(uri_template)};
    }

    std::string type;  // "ref/prompt" or "ref/resource"
    std::string name;  // the prompt's name or the template's URI template
};

struct Progress {
    double progress = 0;
    std::optional<double> total;
    std::string message;
};

// notifications/message.
struct LogMessage {
    LogLevel level = LogLevel::info;
    std::string logger;
    boost::json::value data;
};

enum class ListKind { tools, prompts, resources };

// What subscriptions/listen asks to hear of (2026-07-28); on the 2025 wire the lists' changes come
// unasked and resource_subscriptions become resources/subscribe.
struct ListenFilter {
    bool tools_list_changed = false;
    bool prompts_list_changed = false;
    bool resources_list_changed = false;
    std::vector<std::string> resource_subscriptions;
    std::vector<std::string> task_ids;  // the tasks extension (SEP-2663)
};

// ---- Tasks (2025-11-25 experimental tasks; 2026-07-28 tasks extension, SEP-2663).

enum class TaskStatus { working, input_required, completed, failed, cancelled };

struct Task {
    std::string id;
    TaskStatus status = TaskStatus::working;
    std::string status_message;
    std::string created_at;       // ISO 8601
    std::string last_updated_at;  // ISO 8601
    std::optional<std::int64_t> ttl_ms;
    std::optional<std::int64_t> poll_interval_ms;
    // 2026 tasks/get inlines what the status has: the result (completed), the error (failed),
    // the requests waiting for the client (input_required).
    std::optional<boost::json::value> result;
    std::optional<boost::json::object> error;
    boost::json::object input_requests;

    bool terminal() const {
        return status == TaskStatus::completed || status == TaskStatus::failed || status == TaskStatus::cancelled;
    }
};

// What the client has seen go wrong on its connection without failing a call.
struct ClientStats {
    std::uint64_t malformed_messages = 0;       // not JSON, not JSON-RPC, over the size limit
    std::uint64_t unknown_responses = 0;        // for no request in flight (late, repeated, invented)
    std::uint64_t dropped_notifications = 0;    // the callback queue was full
    std::uint64_t refused_server_requests = 0;  // over the bound of requests from the server at once
};

}  // namespace mcp
