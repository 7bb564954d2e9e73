#include <mcp/server/context.hpp>

#include "server/call.hpp"
#include "util/json_number.hpp"

#include <boost/json/object.hpp>


namespace mcp {

const Exchange& Context::exchange() const { return *state_->exchange; }

std::stop_token Context::stop_token() const { return state_->stop.get_token(); }

void Context::progress(double progress, std::optional<double> total, std::string_view message) {
    const auto& token = exchange().progress_token();
    // A cancelled call gets no response, so progress for it would only be noise.
    if (token.is_null() || state_->cancelled_by_client.load()) return;
    {
        std::lock_guard lock(state_->progress_mutex);
        if (state_->last_progress && progress <= *state_->last_progress) return;  // must increase
        state_->last_progress = progress;
    }
    boost::json::object params;
    params["progressToken"] = token;
    params["progress"] = detail::json_number(progress);
    if (total) params["total"] = detail::json_number(*total);
    if (!message.empty()) params["message"] = message;
    state_->sink->send(jsonrpc::make_notification("notifications/progress", std::move(params)));
}

bool Context::close_sse_stream() { return state_->sink->release_stream(); }

void Context::log(LogLevel level, boost::json::value data, std::string_view logger) {
    const auto wanted = exchange().log_level();
    if (!wanted || level < *wanted) return;
    boost::json::object params;
    params["level"] = to_string(level);
    if (!logger.empty()) params["logger"] = logger;
    params["data"] = std::move(data);
    state_->sink->send(jsonrpc::make_notification("notifications/message", std::move(params)));
}

}  // namespace mcp
