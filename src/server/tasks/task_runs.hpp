#pragma once
// Tasks (docs/adr/0021-tasks.md). A tools/call that becomes a task is answered at once with the
// task, and its handler runs on: its result, its questions to the client and its status go to the
// task store, where tasks/get, tasks/update and tasks/cancel (on any node) and tasks/result read
// them. TaskRuns is this node's list of the tasks it runs, for tasks/cancel to stop them.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::detail {

struct CallState;
struct ServerCore;
struct ToolEntry;
class TaskStore;

class TaskRuns {
public:
    void add(const std::string& id, std::weak_ptr<CallState> call);
    void remove(const std::string& id);
    // Stops the handler of a task that runs here, as tasks/cancel asks. False when none does.
    bool stop(std::string_view id);
    std::size_t size() const;

    // A task's status changed: tasks/result calls waiting on this node look again.
    void changed();
    // Until the next change, `timeout` or `stop`.
    void wait(std::chrono::milliseconds timeout, std::stop_token stop);

private:
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::weak_ptr<CallState>> runs_;
    std::condition_variable_any changed_;
    std::uint64_t generation_ = 0;
};

TaskStore& task_store(ServerCore& core);

// Whether this tools/call of `tool` may become a task: the tool supports tasks and the client can
// take one (2026: it declared the tasks extension, for the session or in this request's _meta;
// 2025: params.task). Throws what each era answers a call the tool cannot serve that way: -32021
// (2026) or -32601 (2025).
bool may_become_task(const ToolEntry& tool, const CallState& call);

// The call becomes a task: stored first, then the request answered with it; from here on the
// call's sink is the task. Nothing happens when the call may not become one or is one already.
// Throws mcp::Error when the principal holds too many tasks.
void start_task(CallState& call);

// tasks/cancel on this node or, through a signal, on the one running the task.
void stop_task(ServerCore& core, std::string_view id);

// A task's client answered everything it waited for: the handler runs again with the answers.
void resume_task(const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
