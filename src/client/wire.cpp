#include "client/wire.hpp"

#include "protocol/wire_reader.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

std::optional<TaskStatus> parse_status(std::string_view text) {
    if (text == "working") return TaskStatus::working;
    if (text == "input_required") return TaskStatus::input_required;
    if (text == "completed") return TaskStatus::completed;
    if (text == "failed") return TaskStatus::failed;
    if (text == "cancelled") return TaskStatus::cancelled;
    return std::nullopt;
}

}  // namespace

Tool tool_from_wire(const boost::json::value& wire) {
    const auto& o = object_of(wire, "a tool");
    Tool tool;
    tool.name = required_string(o, "name");
    tool.title = optional_string(o, "title");
    tool.description = optional_string(o, "description");
    const auto* input = o.if_contains("inputSchema");
    if (input == nullptr) throw std::invalid_argument("missing \"inputSchema\"");
    tool.input_schema = object_of(*input, "\"inputSchema\"");
    if (const auto* output = o.if_contains("outputSchema"); output != nullptr && !output->is_null())
        tool.output_schema = object_of(*output, "\"outputSchema\"");
    if (const auto* a = o.if_contains("annotations"); a != nullptr && !a->is_null())
        tool.annotations = from_wire<ToolAnnotations>(*a);
    if (auto support = optional_string(optional_object(o, "execution"), "taskSupport"); !support.empty())
        tool.task_support = std::move(support);
    tool.icons = icons_from_wire(o);
    tool.meta = meta_from_wire(o);
    return tool;
}

Prompt prompt_from_wire(const boost::json::value& wire) {
    const auto& o = object_of(wire, "a prompt");
    Prompt prompt;
    prompt.name = required_string(o, "name");
    prompt.title = optional_string(o, "title");
    prompt.description = optional_string(o, "description");
    if (const auto* args = optional_array(o, "arguments")) {
        for (const auto& item : *args) {
            const auto& a = object_of(item, "a prompt argument");
            prompt.arguments.push_back(PromptArgument{required_string(a, "name"), optional_string(a, "title"),
                                                      optional_string(a, "description"), optional_bool(a, "required")});
        }
    }
    prompt.icons = icons_from_wire(o);
    prompt.meta = meta_from_wire(o);
    return prompt;
}

Resource resource_from_wire(const boost::json::value& wire) { return from_wire<ResourceLink>(wire); }

ResourceTemplate resource_template_from_wire(const boost::json::value& wire) {
    const auto& o = object_of(wire, "a resource template");
    ResourceTemplate t;
    t.uri_template = required_string(o, "uriTemplate");
    t.name = required_string(o, "name");
    t.title = optional_string(o, "title");
    t.description = optional_string(o, "description");
    t.mime_type = optional_string(o, "mimeType");
    t.icons = icons_from_wire(o);
    t.annotations = annotations_from_wire(o);
    t.meta = meta_from_wire(o);
    return t;
}

Task task_from_wire(const boost::json::value& wire) {
    const auto& o = object_of(wire, "a task");
    Task task;
    task.id = required_string(o, "taskId");
    const auto status = parse_status(required_string(o, "status"));
    if (!status) throw std::invalid_argument("unknown task status");
    task.status = *status;
    task.status_message = optional_string(o, "statusMessage");
    task.created_at = optional_string(o, "createdAt");
    task.last_updated_at = optional_string(o, "lastUpdatedAt");
    task.ttl_ms = o.contains("ttlMs") ? optional_integer(o, "ttlMs") : optional_integer(o, "ttl");
    task.poll_interval_ms =
        o.contains("pollIntervalMs") ? optional_integer(o, "pollIntervalMs") : optional_integer(o, "pollInterval");
    if (const auto* result = o.if_contains("result"); result != nullptr && !result->is_null()) task.result = *result;
    if (const auto* error = o.if_contains("error"); error != nullptr && !error->is_null())
        task.error = object_of(*error, "\"error\"");
    task.input_requests = optional_object(o, "inputRequests");
    return task;
}

CompletionResult completion_from_wire(const boost::json::value& result) {
    const auto& completion = optional_object(object_of(result, "a completion result"), "completion");
    CompletionResult out;
    if (const auto* values = optional_array(completion, "values")) {
        for (const auto& v : *values) {
            if (!v.is_string()) throw std::invalid_argument("\"values\" must hold strings");
            out.values.emplace_back(v.get_string());
        }
    }
    out.total = optional_integer(completion, "total");
    out.has_more = optional_bool(completion, "hasMore");
    return out;
}

LogMessage log_message_from_wire(const boost::json::object& params) {
    LogMessage m;
    const auto level = parse_log_level(required_string(params, "level"));
    if (!level) throw std::invalid_argument("unknown log level");
    m.level = *level;
    m.logger = optional_string(params, "logger");
    if (const auto* data = params.if_contains("data")) m.data = *data;
    return m;
}

Progress progress_from_wire(const boost::json::object& params) {
    Progress p;
    const auto progress = optional_number(params, "progress");
    if (!progress) throw std::invalid_argument("missing \"progress\"");
    p.progress = *progress;
    p.total = optional_number(params, "total");
    p.message = optional_string(params, "message");
    return p;
}

template <class T>
Page<T> page_from_wire(const boost::json::value& result, std::string_view key, T (*read)(const boost::json::value&)) {
    const auto& o = object_of(result, "a list result");
    Page<T> page;
    const auto* items = optional_array(o, key);
    if (items == nullptr) throw std::invalid_argument("missing \"" + std::string(key) + "\"");
    page.items.reserve(items->size());
    for (const auto& item : *items) page.items.push_back(read(item));
    if (auto cursor = optional_string(o, "nextCursor"); !cursor.empty()) page.next_cursor = std::move(cursor);
    return page;
}

template Page<Tool> page_from_wire(const boost::json::value&, std::string_view, Tool (*)(const boost::json::value&));
template Page<Prompt> page_from_wire(const boost::json::value&, std::string_view,
                                     Prompt (*)(const boost::json::value&));
template Page<Resource> page_from_wire(const boost::json::value&, std::string_view,
                                       Resource (*)(const boost::json::value&));
template Page<ResourceTemplate> page_from_wire(const boost::json::value&, std::string_view,
                                               ResourceTemplate (*)(const boost::json::value&));
template Page<Task> page_from_wire(const boost::json::value&, std::string_view, Task (*)(const boost::json::value&));

}  // namespace mcp::detail
