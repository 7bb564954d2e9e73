#include "server/tasks/task_runs.hpp"

#include "server/call.hpp"
#include "server/call_metrics.hpp"
#include "server/client_limits.hpp"
#include "server/core.hpp"
#include "server/dispatch.hpp"
#include "server/tasks/task_sink.hpp"
#include "server/tasks/task_wire.hpp"
#include "util/limit_report.hpp"
#include "util/log.hpp"
#include "util/random.hpp"

#include <mcp/protocol/errors.hpp>

#include <utility>
#include <vector>

namespace mcp::detail {

void TaskRuns::add(const std::string& id, std::weak_ptr<CallState> call) {
    std::lock_guard lock(mutex_);
    runs_.insert_or_assign(id, std::move(call));
}

void TaskRuns::remove(const std::string& id) {
    std::lock_guard lock(mutex_);
    runs_.erase(id);
}

bool TaskRuns::stop(std::string_view id) {
    std::shared_ptr<CallState> call;
    {
        std::lock_guard lock(mutex_);
        auto it = runs_.find(std::string(id));
        if (it == runs_.end()) return false;
        call = it->second.lock();
    }
    if (!call) return false;
    call->cancel();  // the handler's stop token trips; no result is stored after
    return true;
}

std::size_t TaskRuns::size() const {
    std::lock_guard lock(mutex_);
    return runs_.size();
}

void TaskRuns::changed() {
    {
        std::lock_guard lock(mutex_);
        ++generation_;
    }
    changed_.notify_all();
}

void TaskRuns::wait(std::chrono::milliseconds timeout, std::stop_token stop) {
    std::unique_lock lock(mutex_);
    const auto seen = generation_;
    changed_.wait_for(lock, std::move(stop), timeout, [&] { return generation_ != seen; });
}

TaskStore& task_store(ServerCore& core) { return core.nodes.backend().tasks(); }

std::string task_owner(const CallState& call) {
    if (const auto& principal = call.exchange->principal()) return principal->subject;
    if (call.exchange->era() == Era::sessions && call.session) return "session:" + call.session->id();
    return {};
}

bool may_become_task(const ToolEntry& tool, const CallState& call) {
    const auto support = tool.def.spec.task_support;
    const auto& name = tool.def.spec.name;
    if (call.exchange->era() == Era::stateless) {
        // Declared for the whole client or in this request's _meta: both reach the exchange.
        const bool declared = call.exchange->client_extension(kTasksExtension) != nullptr;
        if (support == TaskSupport::required && !declared) {
            throw tasks_extension_missing("Tool " + name + " runs only as a task: declare the " +
                                          std::string(kTasksExtension) + " extension");
        }
        return declared && support != TaskSupport::forbidden;  // a legacy params.task changes nothing
    }
    const auto* task = call.params().if_contains("task");
    const bool asked = task != nullptr && task->is_object();
    if (asked && support == TaskSupport::forbidden)
        throw Error(error_code::method_not_found, "Tool " + name + " does not run as a task");
    if (!asked && support == TaskSupport::required)
        throw Error(error_code::method_not_found, "Tool " + name + " runs only as a task: send params.task");
    return asked;
}

void start_task(CallState& call) {
    if (call.task || !call.may_become_task) return;
    auto& core = call.core;
    const auto era = call.exchange->era();
    TaskRecord record;
    record.id = random_token(18);
    record.owner = task_owner(call);
    record.charged_to = call.client();
    auto* bus = core.nodes.backend().bus();
    record.node = bus != nullptr ? bus->node_id() : "local";
    record.created_ms = record.updated_ms = epoch_ms();
    record.ttl_ms = core.options.tasks.ttl.count();
    if (!task_store(core).create(record, core.options.tasks.max_per_client)) {
        report_refusal(Bound::tasks, Limit::client, record.charged_to);
        throw over_client_quota("tasks within their time to live");
    }
    auto sink = std::make_shared<TaskSink>(core, record.id, era, call.session, call.weak_from_this());
    auto request_sink = std::exchange(call.sink, sink);
    call.task = std::move(sink);
    // The request is answered: closing its stream, or cancelling its id, no longer stops the task.
    call.transport_cancel.reset();
    const auto answering = call.untrack();
    call.key.clear();
    core.task_runs.add(record.id, call.weak_from_this());
    call.task_run.emplace();  // ends in TaskSink::complete, on this thread

    auto result = create_task_result(record, era, core.options.tasks.poll_interval);
    if (era == Era::stateless) result["_meta"] = {{"io.modelcontextprotocol/serverInfo", core.server_info}};
    if (metrics::enabled()) tasks_started().add();
    log().debug("task {} started for {}", record.id, call.message.method);
    request_sink->complete(jsonrpc::make_result(call.message.id, std::move(result)));
}

void task_changed(ServerCore& core, std::string_view id) {
    core.task_runs.changed();
    tell_task_listeners(core, id);
    core.nodes.task_changed(id);
}

void tell_task_listeners(ServerCore& core, std::string_view id) {
    if (!core.listens.listens_to_task(id)) return;
    std::optional<TaskRecord> task;
    try {
        task = task_store(core).get(id);
    } catch (const StoreUnavailable&) {
        return;  // optional notifications; tasks/get tells the same
    }
    if (!task) return;
    core.listens.task_changed(
        id, task->owner,
        jsonrpc::make_notification("notifications/tasks", detailed_task(*task, core.options.tasks.poll_interval)));
}

void stop_task(ServerCore& core, std::string_view id) {
    if (core.task_runs.stop(id)) return;
    core.nodes.task_cancelled(id);
}

void resume_task(const std::shared_ptr<CallState>& call) {
    call->task->resumed();
    const auto& id = call->task->id();
    std::optional<std::string> answers;
    try {
        answers = task_store(call->core).resume(id);
    } catch (const StoreUnavailable& e) {
        log().warn("task {}: its answers could not be read: {}", id, e.what());
    }
    if (!answers) {
        call->core.task_runs.remove(id);  // ended meanwhile
        return;
    }
    call->task->changed();
    if (auto parsed = stored_json(*answers); parsed.is_object()) {
        for (const auto& kv : parsed.get_object()) call->input.answers[kv.key()] = kv.value();
    }
    call->input.keys = KeyCounter();
    call->input.pending.clear();
    call->input.used.clear();
    std::optional<ContextSnapshot::Scope> scope;
    if (call->snapshot) scope.emplace(call->snapshot->restore());
    run_call(*call->method, call);
}

}  // namespace mcp::detail
