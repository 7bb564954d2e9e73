// tasks/get, tasks/update, tasks/cancel (2026 tasks extension, and 2025 but for update),
// tasks/result and tasks/list (2025 experimental tasks). See server/tasks/ and ADR 0021.
#include "server/call_metrics.hpp"
#include "server/methods/methods.hpp"
#include "server/tasks/task_runs.hpp"
#include "server/tasks/task_wire.hpp"

#include <mcp/server/blocking.hpp>

#include <boost/json/serialize.hpp>

#include <charconv>

namespace mcp::detail {

namespace {

// 2026: the tasks methods serve only clients that declared the extension.
void check_declared(const CallState& call) {
    if (call.exchange->era() != Era::stateless || call.exchange->client_extension(kTasksExtension) != nullptr) return;
    throw tasks_extension_missing("Missing required client capability: the " + std::string(kTasksExtension) +
                                  " extension");
}

std::string task_id_param(const CallState& call) {
    const auto* id = call.params().if_contains("taskId");
    if (id == nullptr || !id->is_string() || id->get_string().empty() || id->get_string().size() > 256)
        throw InvalidParams("Invalid params: taskId must be a non-empty string");
    return std::string(id->get_string());
}

// The caller's task; another principal's is as unknown as one that never was.
TaskRecord find_task(ServerCore& core, const CallState& call, const std::string& id) {
    auto task = task_store(core).get(id);
    if (!task || task->owner != task_owner(call)) throw InvalidParams("Unknown task: " + id);
    return *task;
}

}  // namespace

boost::json::value get_task(ServerCore& core, CallState& call) {
    check_declared(call);
    const auto task = find_task(core, call, task_id_param(call));
    const auto poll = core.options.tasks.poll_interval;
    if (call.exchange->era() == Era::stateless) return detailed_task(task, poll);
    return task_fields(task, Era::sessions, poll);
}

boost::json::value update_task(ServerCore& core, CallState& call) {
    check_declared(call);
    const auto id = task_id_param(call);
    const auto* responses = call.params().if_contains("inputResponses");
    if (responses == nullptr || !responses->is_object())
        throw InvalidParams("Invalid params: inputResponses must be an object");
    find_task(core, call, id);
    // The last awaited answer wakes the node that runs the task (this one or another).
    if (task_store(core).answer(id, boost::json::serialize(*responses)))
        core.nodes.backend().mailbox().deliver("task:" + id, boost::json::object());
    task_changed(core, id);
    return boost::json::object();
}

boost::json::value cancel_task(ServerCore& core, CallState& call) {
    check_declared(call);
    const auto id = task_id_param(call);
    const auto before = find_task(core, call, id);
    const bool modern = call.exchange->era() == Era::stateless;
    // 2025 refuses to cancel a finished task; 2026 acknowledges it again.
    if (!modern && terminal(before.status))
        throw InvalidParams("Task " + id + " is " + std::string(to_string(before.status)) + " already");
    auto after = task_store(core).cancel(id);
    if (!after) throw InvalidParams("Unknown task: " + id);
    if (!terminal(before.status) && after->status == TaskStatus::cancelled) {
        if (metrics::enabled()) tasks_ended("cancelled").add();
        stop_task(core, id);
    }
    task_changed(core, id);
    if (modern) return boost::json::object();
    return task_fields(*after, Era::sessions, core.options.tasks.poll_interval);
}

// 2025: waits until the task ends, then answers what the call would have.
boost::json::value task_result(ServerCore& core, CallState& call) {
    const auto id = task_id_param(call);
    auto task = find_task(core, call, id);
    BlockingScope blocking;  // the pool may add a thread while this one waits
    while (!terminal(task.status)) {
        // Woken by a change on this node; another node's is seen at the next look.
        core.task_runs.wait(std::chrono::milliseconds(250), call.stop.get_token());
        if (call.stop.stop_requested()) throw Error(error_code::internal_error, "tasks/result was cancelled");
        task = find_task(core, call, id);
    }
    // A failed 2025 tool call still answers with its result (isError); a protocol error with itself.
    if (task.status == TaskStatus::failed && task.result.empty()) {
        auto error = stored_json(task.error);
        const auto& e = error.as_object();
        const auto* code = e.if_contains("code");
        const auto* message = e.if_contains("message");
        throw Error(
            code != nullptr && code->is_int64() ? static_cast<int>(code->get_int64()) : error_code::internal_error,
            message != nullptr && message->is_string() ? std::string(message->get_string()) : "Task failed",
            e.contains("data") ? e.at("data") : boost::json::value());
    }
    if (task.status == TaskStatus::cancelled) throw Error(error_code::internal_error, "Task " + id + " was cancelled");
    auto result = stored_json(task.result);
    auto& meta = result.as_object()["_meta"];
    if (!meta.is_object()) meta = boost::json::object();
    meta.as_object()[kRelatedTaskKey] = {{"taskId", id}};
    return result;
}

// 2025: the caller's tasks, oldest first, a page at a time.
boost::json::value list_tasks(ServerCore& core, CallState& call) {
    const auto owner = task_owner(call);
    std::int64_t after_ms = -1;
    std::string after_id;
    if (const auto* cursor = call.params().if_contains("cursor"); cursor != nullptr && !cursor->is_null()) {
        if (!cursor->is_string()) throw InvalidParams("Invalid params: cursor must be a string");
        const auto last = decode_cursor(core.keys(), "tasks", owner, cursor->get_string());
        const auto cut = last.find('\n');
        if (cut == std::string::npos) throw InvalidParams("Invalid cursor");
        std::from_chars(last.data(), last.data() + cut, after_ms);
        after_id = last.substr(cut + 1);
    }
    const auto page = core.options.page_size;
    auto tasks = task_store(core).list(owner, after_ms, after_id, page + 1);
    boost::json::array items;
    const auto poll = core.options.tasks.poll_interval;
    for (std::size_t i = 0; i < tasks.size() && i < page; ++i)
        items.push_back(task_fields(tasks[i], Era::sessions, poll));
    boost::json::object result{{"tasks", std::move(items)}};
    if (tasks.size() > page) {
        const auto& last = tasks[page - 1];
        result["nextCursor"] =
            encode_cursor(core.keys(), "tasks", owner, std::to_string(last.created_ms) + '\n' + last.id);
    }
    return result;
}

}  // namespace mcp::detail
