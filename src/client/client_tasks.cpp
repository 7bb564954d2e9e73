// Tasks from the client's side: the 2025-11-25 experimental tasks (params.task, tasks/result,
// tasks/list) and the 2026-07-28 tasks extension (SEP-2663: CreateTaskResult, tasks/get with the
// result inlined, tasks/update for the task's input requests). See docs/adr/0021-tasks.md.
#include <mcp/client/client.hpp>

#include "client/client_core.hpp"
#include "client/mrtr.hpp"
#include "client/wire.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>

#include <condition_variable>
#include <stdexcept>

namespace mcp {

namespace {

constexpr std::chrono::milliseconds kDefaultPollInterval{1000};
// How long the tasks/cancel of a call that was stopped may take.
constexpr std::chrono::milliseconds kCancelTimeout{5000};

Task task_of(const boost::json::value& wire) {
    return detail::reading("task", [&] { return detail::task_from_wire(wire); });
}

CallToolResult tool_result_of(const boost::json::value& wire) {
    return detail::reading("task result", [&] { return from_wire<CallToolResult>(wire); });
}

[[noreturn]] void throw_task_error(const Task& task) {
    const auto& e = task.error ? *task.error : boost::json::object();
    const auto* code = e.if_contains("code");
    const auto* message = e.if_contains("message");
    throw Error(
        code != nullptr && code->is_int64() ? static_cast<int>(code->get_int64()) : error_code::internal_error,
        message != nullptr && message->is_string() ? std::string(message->get_string()) : "task " + task.id + " failed",
        e.contains("data") ? e.at("data") : boost::json::value());
}

}  // namespace

std::variant<CallToolResult, Task> Client::call_tool_as_task(std::string_view name, boost::json::object arguments,
                                                             std::optional<std::int64_t> ttl_ms,
                                                             const CallOptions& options) {
    boost::json::object params{{"name", name}, {"arguments", std::move(arguments)}};
    const bool modern = impl_->era() == Era::stateless;
    if (modern && !impl_->options.tasks)
        throw std::logic_error("call_tool_as_task: a 2026 client declares the tasks extension (ClientOptions::tasks)");
    if (!modern) {
        boost::json::object task;
        if (ttl_ms) task["ttl"] = *ttl_ms;
        params["task"] = std::move(task);
    }
    auto result = impl_->call("tools/call", std::move(params), options);
    if (auto task = impl_->task_of_reply(result, true)) return std::move(*task);
    auto typed = tool_result_of(result);
    impl_->tools.check_output(name, typed);
    return typed;
}

Task Client::get_task(std::string_view task_id, const CallOptions& options) {
    return task_of(impl_->call("tasks/get", {{"taskId", task_id}}, options));
}

void Client::cancel_task(std::string_view task_id, const CallOptions& options) {
    impl_->call("tasks/cancel", {{"taskId", task_id}}, options);
}

Page<Task> Client::list_tasks(const std::optional<std::string>& cursor, const CallOptions& options) {
    impl_->check_era(Era::sessions, "tasks/list");
    boost::json::object params;
    if (cursor) params["cursor"] = *cursor;
    const auto result = impl_->call("tasks/list", std::move(params), options);
    return detail::reading("tasks listing",
                           [&] { return detail::page_from_wire(result, "tasks", &detail::task_from_wire); });
}

CallToolResult Client::task_result(std::string_view task_id, const CallOptions& options) {
    return impl_->wait_for_task(task_id, options);
}

std::optional<Task> Client::Impl::task_of_reply(const boost::json::value& result, bool asked) const {
    const auto* o = result.if_object();
    if (o == nullptr) return std::nullopt;
    if (era() == Era::stateless) {
        const auto* type = o->if_contains("resultType");
        if (type == nullptr || *type != "task") return std::nullopt;
        return task_of(result);
    }
    const auto* task = o->if_contains("task");
    if (!asked || task == nullptr) return std::nullopt;
    return task_of(*task);
}

CallToolResult Client::Impl::wait_for_task(std::string_view task_id, const CallOptions& options) {
    const auto longest = options.max_total_timeout.value_or(this->options.max_request_timeout);
    if (era() == Era::sessions) {
        // tasks/result answers at the task's end: it may wait as long as the whole call.
        CallOptions waiting = options;
        if (!waiting.timeout) waiting.timeout = longest;
        return tool_result_of(call("tasks/result", {{"taskId", task_id}}, waiting));
    }

    // 2026: poll until the task ends, answering what it asks; bounded by the call's total timeout.
    const auto deadline = std::chrono::steady_clock::now() + longest;
    std::mutex mutex;
    std::condition_variable_any wake;
    while (true) {
        auto task = task_of(call("tasks/get", {{"taskId", task_id}}, options));
        switch (task.status) {
            case TaskStatus::completed: return tool_result_of(task.result ? *task.result : boost::json::object());
            case TaskStatus::failed: throw_task_error(task);
            case TaskStatus::cancelled: throw Cancelled();
            case TaskStatus::input_required: {
                const auto requests = detail::reading("task input requests",
                                                      [&] { return detail::read_input_requests(task.input_requests); });
                if (!requests.empty()) {
                    call("tasks/update",
                         {{"taskId", task_id},
                          {"inputResponses", detail::answer_requests(requests, input_answerer(options, requests))}},
                         options);
                    continue;
                }
                break;
            }
            case TaskStatus::working: break;
        }
        const auto interval =
            task.poll_interval_ms ? std::chrono::milliseconds(*task.poll_interval_ms) : kDefaultPollInterval;
        if (std::chrono::steady_clock::now() + interval >= deadline)
            throw RequestTimeout("task " + std::string(task_id) + " did not end in time");
        std::unique_lock lock(mutex);
        if (wake.wait_for(lock, options.stop, interval, [] { return false; }) || options.stop.stop_requested())
            throw Cancelled();
    }
}

CallToolResult Client::Impl::follow_task(const Task& task, const CallOptions& options) {
    if (options.on_task) options.on_task(task);
    try {
        return wait_for_task(task.id, options);
    } catch (...) {
        // Whatever the wait ended with once the caller stopped (Cancelled, an input request it
        // refused), the task must not run on for nobody: it is cancelled, best effort.
        if (options.stop.stop_requested()) {
            try {
                CallOptions cancelling;
                cancelling.timeout = kCancelTimeout;
                call("tasks/cancel", {{"taskId", task.id}}, cancelling);
            } catch (const std::exception& e) {
                detail::log().debug("client: task {} not cancelled: {}", task.id, e.what());
            }
        }
        throw;
    }
}

}  // namespace mcp
