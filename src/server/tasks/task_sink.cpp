#include "server/tasks/task_sink.hpp"

#include "server/call.hpp"
#include "server/call_metrics.hpp"
#include "server/core.hpp"
#include "server/tasks/task_runs.hpp"
#include "server/tasks/task_wire.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/json/serialize.hpp>

#include <cmath>

namespace mcp::detail {

namespace {

std::string input_key(std::string_view id) { return "task:" + std::string(id); }

// 2025: every message tied to a task names it.
void relate(boost::json::object& message, const std::string& id) {
    auto& params = message["params"];
    if (!params.is_object()) params = boost::json::object();
    auto& meta = params.as_object()["_meta"];
    if (!meta.is_object()) meta = boost::json::object();
    meta.as_object()[kRelatedTaskKey] = {{"taskId", id}};
}

// The first text block of a tool result, for a status message.
std::string first_text(const boost::json::object& result) {
    const auto* content = result.if_contains("content");
    if (content == nullptr || !content->is_array()) return {};
    for (const auto& block : content->get_array()) {
        const auto* text = block.is_object() ? block.get_object().if_contains("text") : nullptr;
        if (text != nullptr && text->is_string()) return std::string(text->get_string()).substr(0, 512);
    }
    return {};
}

std::string number_text(double v) {
    return v == std::floor(v) && std::abs(v) < 1e15 ? std::to_string(static_cast<long long>(v)) : std::to_string(v);
}

}  // namespace

TaskSink::TaskSink(ServerCore& core, std::string id, Era era, std::shared_ptr<Session> session,
                   std::weak_ptr<CallState> call)
    : core_(core), id_(std::move(id)), era_(era), session_(std::move(session)), call_(std::move(call)) {}

TaskSink::~TaskSink() = default;

bool TaskSink::send(boost::json::value message) {
    if (era_ == Era::stateless || !session_) return false;  // 2026 tasks have no stream
    auto& o = message.as_object();
    const bool request = o.contains("id") && o.contains("method");
    if (request) {
        try {
            if (task_store(core_).await_input(id_, "{}")) changed();
        } catch (const StoreUnavailable& e) {
            log().warn("task {}: input_required not stored: {}", id_, e.what());
        }
    }
    relate(o, id_);
    return session_->notify(std::move(message));
}

void TaskSink::answered() {
    try {
        if (task_store(core_).resume(id_)) changed();
    } catch (const StoreUnavailable& e) {
        log().warn("task {}: working again, not stored: {}", id_, e.what());
    }
}

void TaskSink::progress(double progress, std::optional<double> total, std::string_view message) {
    std::string text(message);
    if (text.empty()) {
        text = number_text(progress);
        if (total) text.append("/").append(number_text(*total));
    }
    try {
        task_store(core_).set_message(id_, text);
    } catch (const StoreUnavailable& e) {
        log().debug("task {}: progress not stored: {}", id_, e.what());
    }
}

void TaskSink::changed() {
    task_changed(core_, id_);
    if (era_ != Era::sessions || !session_) return;
    try {
        auto record = task_store(core_).get(id_);
        if (!record) return;
        session_->notify(jsonrpc::make_notification("notifications/tasks/status",
                                                    task_fields(*record, era_, core_.options.tasks.poll_interval)));
    } catch (const StoreUnavailable&) {
        // Optional notification; tasks/get tells the same.
    }
}

void TaskSink::complete(std::optional<boost::json::value> response) {
    // This run of the handler is over (run_call calls this on the handler's thread).
    if (auto call = call_.lock()) call->task_run.reset();
    if (!response) {
        // Stopped: by tasks/cancel, or by a shutdown that outlasted its grace period.
        if (!core_.shutting_down.load()) return end({.status = TaskStatus::cancelled});
        return end({.status = TaskStatus::failed,
                    .error = boost::json::serialize(boost::json::object{
                        {"code", -32603}, {"message", "The server node running this task shut down"}})});
    }
    auto& o = response->as_object();
    if (const auto* error = o.if_contains("error")) {
        const auto* message = error->as_object().if_contains("message");
        return end({.status = TaskStatus::failed,
                    .error = boost::json::serialize(*error),
                    .message = message != nullptr && message->is_string() ? std::string(message->get_string()) : ""});
    }
    auto& result = o["result"].as_object();
    if (const auto* type = result.if_contains("resultType"); type && *type == "input_required") {
        return wait_for_input(result["inputRequests"]);
    }
    // A tool's own error: 2025 says failed (tasks/result still answers with the result), the 2026
    // extension completed with isError (failed is for protocol errors).
    const auto* is_error = result.if_contains("isError");
    if (era_ == Era::sessions && is_error != nullptr && *is_error == true) {
        return end({.status = TaskStatus::failed,
                    .result = boost::json::serialize(result),
                    .message = "Tool execution failed: " + first_text(result)});
    }
    end({.status = TaskStatus::completed, .result = boost::json::serialize(result)});
}

void TaskSink::end(const TaskEnd& how) {
    try {
        // False when it was cancelled, or failed for a lost node, before.
        if (task_store(core_).finish(id_, how) && metrics::enabled()) tasks_ended(to_string(how.status)).add();
    } catch (const StoreUnavailable& e) {
        log().warn("task {}: its end ({}) could not be stored: {}", id_, to_string(how.status), e.what());
    }
    core_.task_runs.remove(id_);
    changed();
}

// The handler asked its 2026 client something: the task waits in input_required, holding no
// thread, until tasks/update (on any node) has answered every request; then it runs again.
void TaskSink::wait_for_input(const boost::json::value& requests) {
    auto call = call_.lock();
    if (!call) return;
    auto& mailbox = core_.nodes.backend().mailbox();
    const auto key = input_key(id_);
    auto& core = core_;
    try {
        mailbox.expect(key, core_.options.tasks.ttl, [&core, call](const boost::json::value&) {
            core.pool().try_submit([call] { resume_task(call); }, Admission::always);
        });
        if (!task_store(core_).await_input(id_, boost::json::serialize(requests))) {
            mailbox.forget(key);  // cancelled meanwhile
            core_.task_runs.remove(id_);
            return;
        }
    } catch (const StoreUnavailable& e) {
        mailbox.forget(key);
        return end({.status = TaskStatus::failed,
                    .error = boost::json::serialize(boost::json::object{
                        {"code", -32603}, {"message", std::string("Store unavailable: ") + e.what()}})});
    }
    // The wait ends with tasks/cancel, or with the task's time to live when nobody answers: the
    // mailbox lets go of the call, and this node of the task (off the cancelling thread).
    auto let_go = [&core, key, id = id_] {
        core.nodes.backend().mailbox().forget(key);
        core.task_runs.remove(id);
    };
    expiry_ = core.deadlines().schedule(std::chrono::steady_clock::now() + core.options.tasks.ttl, let_go);
    on_cancel_.emplace(call->stop.get_token(),
                       std::function<void()>([&core, let_go] { core.deadlines().post(let_go); }));
    changed();
}

void TaskSink::resumed() {
    if (expiry_ != 0) core_.deadlines().cancel(std::exchange(expiry_, 0));
}

}  // namespace mcp::detail
