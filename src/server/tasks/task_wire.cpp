#include "server/tasks/task_wire.hpp"

#include <boost/json/parse.hpp>

#include <ctime>

namespace mcp::detail {

namespace {

// ISO 8601 in UTC with milliseconds: 2026-12-02T07:51:39.123Z.
std::string iso_time(std::int64_t ms) {
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    const auto n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    char out[40];
    std::snprintf(out, sizeof out, "%.*s.%03dZ", static_cast<int>(n), text, static_cast<int>(ms % 1000));
    return out;
}

}  // namespace

Error tasks_extension_missing(std::string message) {
    return Error(
        error_code::missing_required_client_capability, std::move(message),
        boost::json::object{{"requiredCapabilities", {{"extensions", {{kTasksExtension, boost::json::object()}}}}}});
}

boost::json::value stored_json(const std::string& text) {
    if (text.empty()) return boost::json::object();
    boost::system::error_code ec;
    auto parsed = boost::json::parse(text, ec);
    return ec ? boost::json::value(boost::json::object()) : parsed;
}

boost::json::object task_fields(const TaskRecord& task, Era era, std::chrono::milliseconds poll_interval) {
    boost::json::object out;
    out["taskId"] = task.id;
    out["status"] = to_string(task.status);
    if (!task.message.empty()) out["statusMessage"] = task.message;
    out["createdAt"] = iso_time(task.created_ms);
    out["lastUpdatedAt"] = iso_time(task.updated_ms);
    const bool modern = era == Era::stateless;
    out[modern ? "ttlMs" : "ttl"] = task.ttl_ms;
    if (!terminal(task.status)) out[modern ? "pollIntervalMs" : "pollInterval"] = poll_interval.count();
    return out;
}

boost::json::object detailed_task(const TaskRecord& task, std::chrono::milliseconds poll_interval) {
    auto out = task_fields(task, Era::stateless, poll_interval);
    if (task.status == TaskStatus::input_required) out["inputRequests"] = stored_json(task.input_requests);
    if (task.status == TaskStatus::completed) out["result"] = stored_json(task.result);
    if (task.status == TaskStatus::failed) out["error"] = stored_json(task.error);
    return out;
}

boost::json::object create_task_result(const TaskRecord& task, Era era, std::chrono::milliseconds poll_interval) {
    auto fields = task_fields(task, era, poll_interval);
    if (era != Era::stateless) return boost::json::object{{"task", std::move(fields)}};
    fields["resultType"] = "task";
    return fields;
}

}  // namespace mcp::detail
