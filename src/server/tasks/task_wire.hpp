#pragma once
// A task record as each era shows it: the 2026-07-28 tasks extension (SEP-2663: ttlMs,
// pollIntervalMs, DetailedTask with the result inlined) and the 2025-11-25 experimental tasks
// (ttl, pollInterval, the result through tasks/result).
#include "store/task_store.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/revision.hpp>

#include <boost/json/object.hpp>

#include <chrono>

namespace mcp::detail {

inline constexpr std::string_view kTasksExtension = "io.modelcontextprotocol/tasks";
inline constexpr std::string_view kRelatedTaskKey = "io.modelcontextprotocol/related-task";

// taskId, status, statusMessage, createdAt, lastUpdatedAt, the time to live and poll interval.
boost::json::object task_fields(const TaskRecord& task, Era era, std::chrono::milliseconds poll_interval);
// 2026 tasks/get: the fields, with inputRequests, result or error as the status has them.
boost::json::object detailed_task(const TaskRecord& task, std::chrono::milliseconds poll_interval);
// The answer to the request that created the task: flat with resultType "task" (2026), or
// {"task": {...}} (2025).
boost::json::object create_task_result(const TaskRecord& task, Era era, std::chrono::milliseconds poll_interval);
// -32021 for a 2026 client that did not declare the tasks extension, naming it in
// requiredCapabilities.
Error tasks_extension_missing(std::string message);
// A JSON text stored in a record, parsed; an empty object when absent or malformed.
boost::json::value stored_json(const std::string& text);

}  // namespace mcp::detail
