#pragma once
// Where a task's call writes once it is a task: the store instead of the request's stream. The
// result or error ends the task; a 2026 input_required answer makes it wait for tasks/update; a
// 2025 request to the client goes out on the session's stream while the task waits in
// input_required.
#include "store/task_store.hpp"

#include <mcp/protocol/revision.hpp>
#include <mcp/server/sink.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

namespace mcp {
class Session;
}

namespace mcp::detail {

struct CallState;
struct ServerCore;

class TaskSink final : public CallSink {
public:
    TaskSink(ServerCore& core, std::string id, Era era, std::shared_ptr<Session> session,
             std::weak_ptr<CallState> call);
    ~TaskSink() override;

    const std::string& id() const { return id_; }

    bool send(boost::json::value message) override;
    void complete(std::optional<boost::json::value> response) override;

    // 2025: the client answered what the handler asked; the task works again.
    void answered();
    // 2026: the answers are in and the handler runs again; the wait's expiry is off.
    void resumed();
    // ctx.progress in a 2026 task: the status message.
    void progress(double progress, std::optional<double> total, std::string_view message);
    // The status changed: 2025 sessions are told, and so are listen streams and tasks/result calls
    // (task_changed).
    void changed();

private:
    void wait_for_input(const boost::json::value& requests);
    void end(const TaskEnd& how);

    ServerCore& core_;
    const std::string id_;
    const Era era_;
    const std::shared_ptr<Session> session_;  // 2025: where requests and notifications go
    const std::weak_ptr<CallState> call_;
    // While the task waits for tasks/update: tasks/cancel stops the wait, and so does the task's
    // time to live (a DeadlineQueue ticket; 0 when none is pending).
    std::optional<std::stop_callback<std::function<void()>>> on_cancel_;
    std::uint64_t expiry_ = 0;
};

}  // namespace mcp::detail
