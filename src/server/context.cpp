#include <mcp/server/context.hpp>

#include "server/call.hpp"
#include "server/call_span.hpp"
#include "server/tasks/task_runs.hpp"
#include "server/tasks/task_sink.hpp"
#include "util/json_number.hpp"

#include <boost/json/object.hpp>

namespace mcp {

const Exchange& Context::exchange() const { return *state_->exchange; }

// The handler has returned: whatever else allocates in the scratch arena (list pages, the
// envelope of the response) does so on this same thread, after it.
boost::json::storage_ptr detail::result_storage(const Context& ctx) { return ctx.state_->scratch; }

std::stop_token Context::stop_token() const { return state_->stop.get_token(); }

void Context::progress(double progress, std::optional<double> total, std::string_view message) {
    // A 2026 task has no stream to send progress on: it becomes the task's status message.
    if (state_->task && exchange().era() == Era::stateless) return state_->task->progress(progress, total, message);
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

void Context::set_span_attribute(telemetry::AttributeKey key, telemetry::AttributeValue value) {
    if (auto* span = detail::current_span(*state_)) span->set(std::move(key), std::move(value));
}

void Context::add_span_event(std::string name, telemetry::Attributes attributes) {
    if (auto* span = detail::current_span(*state_)) span->add_event(std::move(name), std::move(attributes));
}

telemetry::PropagatedTrace Context::outgoing_trace() const {
    return {.traceparent = detail::child_traceparent(*state_), .tracestate = state_->trace.tracestate};
}

void Context::start_task() { detail::start_task(*state_); }

bool Context::in_task() const { return state_->task != nullptr; }

bool Context::close_sse_stream() { return state_->sink->release_stream(); }

const std::string& Context::round_state() const { return state_->input.handler_state; }

void Context::set_round_state(std::string state) { state_->input.handler_state = std::move(state); }

std::vector<InputAnswer> Context::ask(const std::vector<InputRequest>& requests) {
    return detail::ask(*state_, requests);
}

ElicitResult Context::elicit(std::string message, FormSchema schema, std::string key) {
    auto answers = ask({ElicitRequest{std::move(message), std::move(schema), std::move(key)}});
    return std::get<ElicitResult>(std::move(answers.front()));
}

ElicitResult Context::elicit_url(std::string message, std::string url, std::string key) {
    auto answers = ask({UrlElicitRequest{std::move(message), std::move(url), {}, std::move(key)}});
    return std::get<ElicitResult>(std::move(answers.front()));
}

SamplingResult Context::sample(SamplingRequest request) {
    auto answers = ask({std::move(request)});
    return std::get<SamplingResult>(std::move(answers.front()));
}

std::string Context::sample_text(std::string prompt, int max_tokens, std::string key) {
    SamplingRequest request;
    request.messages.push_back({Role::user, text(std::move(prompt))});
    request.max_tokens = max_tokens;
    request.key = std::move(key);
    return sample(std::move(request)).text();
}

std::vector<Root> Context::roots(std::string key) {
    auto answers = ask({RootsRequest{std::move(key)}});
    return std::get<std::vector<Root>>(std::move(answers.front()));
}

void Context::notify_elicitation_complete(std::string elicitation_id) {
    if (exchange().era() != Era::sessions || !exchange().session()) return;  // removed in 2026-07-28
    exchange().session()->notify(jsonrpc::make_notification("notifications/elicitation/complete",
                                                            {{"elicitationId", std::move(elicitation_id)}}));
}

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
