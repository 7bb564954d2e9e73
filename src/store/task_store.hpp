#pragma once
// The records behind tasks (docs/adr/0021-tasks.md): what tasks/get, tasks/update and tasks/cancel
// read and change, in memory for one node or in Redis, where every node sees them. A record is
// plain data; the core (src/server/tasks/) gives it meaning. Every change that ends a task or
// moves it is a compare-and-set on its status, so a task ends once: with its result, cancelled
// by its client, or failed because the node running it stopped.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

enum class TaskStatus : std::uint8_t { working, input_required, completed, failed, cancelled };

std::string_view to_string(TaskStatus status);
std::optional<TaskStatus> parse_task_status(std::string_view text);
inline bool terminal(TaskStatus s) { return s != TaskStatus::working && s != TaskStatus::input_required; }

struct TaskRecord {
    std::string id;
    std::string owner;       // the principal's subject; empty when anonymous
    std::string charged_to;  // the client it counts against (util/client_key.hpp), for --max-tasks
    std::string node;        // the node running it
    TaskStatus status = TaskStatus::working;
    std::string message;          // statusMessage
    std::int64_t created_ms = 0;  // milliseconds since the epoch
    std::int64_t updated_ms = 0;
    std::int64_t ttl_ms = 0;  // from creation
    // JSON texts, empty when absent: the result (completed), the error (failed), the requests
    // waiting for the client by key (input_required), and the answers given to them that the
    // handler has not taken yet.
    std::string result;
    std::string error;
    std::string input_requests;
    std::string answers;
};

// How a task ended. A 2025 tool call whose result says isError ends failed with its result.
struct TaskEnd {
    TaskStatus status = TaskStatus::completed;
    std::string result;   // JSON text of the call's result, or empty
    std::string error;    // JSON text of the JSON-RPC error, or empty
    std::string message;  // the statusMessage to leave, or empty to keep the last one
};

// Said of a task whose node stopped beating (Redis): the error it fails with.
inline constexpr std::string_view kNodeLostMessage = "The server node running this task stopped";

class TaskStore {
public:
    virtual ~TaskStore() = default;
    // Stores a new task before its client hears of it. False when `record.charged_to` already has
    // `max_per_client` tasks within their time to live, on any node.
    virtual bool create(const TaskRecord& record, std::size_t max_per_client) = 0;
    // Nothing when unknown or expired.
    virtual std::optional<TaskRecord> get(std::string_view id) = 0;
    // Ends a task that runs. False when it had ended already.
    virtual bool finish(std::string_view id, const TaskEnd& end) = 0;
    // The task waits for its client: input_required, with these requests (a JSON object by key).
    virtual bool await_input(std::string_view id, std::string_view requests) = 0;
    // The client answered (`responses`, a JSON object by key): answers to requests the task waits
    // for are kept, others ignored, and answered requests stop waiting. True when this answered
    // the last request waited for: the task may run again.
    virtual bool answer(std::string_view id, std::string_view responses) = 0;
    // The answers kept for a task that waits for none any more, removed; it is working again.
    // Nothing when the task ended meanwhile.
    virtual std::optional<std::string> resume(std::string_view id) = 0;
    virtual void set_message(std::string_view id, std::string_view message) = 0;
    // tasks/cancel: a task that runs becomes cancelled. Its record after, or nothing when unknown.
    virtual std::optional<TaskRecord> cancel(std::string_view id) = 0;
    // The owner's tasks, oldest first, from the one after (`after_ms`, `after_id`).
    virtual std::vector<TaskRecord> list(std::string_view owner, std::int64_t after_ms, std::string_view after_id,
                                         std::size_t limit) = 0;
};

std::int64_t epoch_ms(std::chrono::system_clock::time_point t = std::chrono::system_clock::now());

std::unique_ptr<TaskStore> make_memory_task_store();

}  // namespace mcp::detail
