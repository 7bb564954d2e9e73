#pragma once
// What a handler can do while it runs: report progress, log to the client, notice cancellation,
// read the request's Exchange. Tools, prompts and resources receive the same Context.
//
//   server.tool("crunch", "…", [](const In& in, mcp::ToolContext& ctx) {
//       for (int i = 0; i < 100 && !ctx.cancelled(); ++i) { work(); ctx.progress(i + 1, 100); }
//   });
#include <mcp/protocol/types.hpp>
#include <mcp/server/client_requests.hpp>
#include <mcp/server/detail/callable.hpp>
#include <mcp/server/exchange.hpp>
#include <mcp/telemetry/attribute.hpp>
#include <mcp/telemetry/propagated_trace.hpp>

#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

namespace mcp {

class Context;

namespace detail {
struct CallState;
// Where the framework builds a handler's converted result: the call's scratch arena (the
// message's own, when the server parsed it), else default storage.
boost::json::storage_ptr result_storage(const Context& ctx);
}  // namespace detail

class Context {
public:
    explicit Context(detail::CallState& state) : state_(&state) {}

    const Exchange& exchange() const;
    // Who is asking: the verified token's subject, scopes and claims; null when anonymous.
    const Principal* principal() const { return exchange().principal().get(); }

    // Cooperative cancellation: notifications/cancelled (or, over 2026 HTTP, a closed response
    // stream) trips this token. Long handlers should check it.
    std::stop_token stop_token() const;
    bool cancelled() const { return stop_token().stop_requested(); }

    // notifications/progress for this request. Does nothing when the request carried no
    // progressToken. Progress must increase; a value not above the last one is dropped.
    void progress(double progress, std::optional<double> total = std::nullopt, std::string_view message = {});

    // notifications/message for this request, sent when the client's level allows it.
    void log(LogLevel level, boost::json::value data, std::string_view logger = {});
    void debug(std::string_view message) { log(LogLevel::debug, boost::json::string(message)); }
    void info(std::string_view message) { log(LogLevel::info, boost::json::string(message)); }
    void warning(std::string_view message) { log(LogLevel::warning, boost::json::string(message)); }
    void error(std::string_view message) { log(LogLevel::error, boost::json::string(message)); }

    bool client_supports(std::string_view capability) const { return exchange().client_supports(capability); }

    // ---- Asking the client (docs/adr/0010-client-requests.md). Each throws CapabilityMissing when
    // the client did not declare the capability, and on the 2025 wire InputTimeout, ClientGone or
    // ClientError. On the 2026 wire a request without its answer ends this run of the handler;
    // the client answers and retries, and the handler runs again from the top: code before the
    // request runs once per round.
    ElicitResult elicit(std::string message, FormSchema schema, std::string key = {});
    ElicitResult elicit_url(std::string message, std::string url, std::string key = {});
    SamplingResult sample(SamplingRequest request);
    // One user message; the text of the reply.
    std::string sample_text(std::string prompt, int max_tokens = 1024, std::string key = {});
    std::vector<Root> roots(std::string key = {});
    // Several requests in one round: on the 2026 wire the client gets them together.
    std::vector<InputAnswer> ask(const std::vector<InputRequest>& requests);
    // 2025-11-25: tells the client that the URL elicitation `elicitation_id` finished.
    void notify_elicitation_complete(std::string elicitation_id);

    // 2026-07-28: a string one run of the handler leaves for the next, sealed in the requestState
    // with the answers (the client can neither read nor change it). round_state() is what the
    // previous run left: empty in the first run, and always on the 2025 wire. A run that asks for
    // input hands on what it last set, else what it read. For what must stay in this process
    // between rounds (an open call elsewhere), keep it here and put its id in the state.
    const std::string& round_state() const;
    void set_round_state(std::string state);

    // A tool declared with task_support: the call becomes a task here, if the client can take one
    // (the request is answered with the task, and the handler goes on). Does nothing otherwise, or
    // when the call is a task already. See ToolSpec::task_started_by_handler.
    void start_task();
    // Whether the handler runs in a task.
    bool in_task() const;

    // 2025-11-25 over HTTP: closes this request's SSE response now, before the result; the
    // client reconnects with Last-Event-ID and receives everything after, result included (SEP-1699
    // polling, for long calls behind proxies that cut idle connections). Returns false, and does
    // nothing, where a stream cannot be resumed (stdio, 2026-07-28).
    bool close_sse_stream();

    // With tracing on and the request sampled (ServerOptions::tracing): an attribute or a
    // timestamped event on the span of this run of the handler, exported with it. From the
    // handler's own thread; nothing happens when the request is not traced. At most 128 of each.
    // A name given as a string literal is kept without a copy.
    void set_span_attribute(telemetry::AttributeKey key, telemetry::AttributeValue value);
    void add_span_event(std::string name, telemetry::Attributes attributes = {});
    // The request's trace for what the handler calls (an mcp::Client's CallOptions::trace, another
    // service's headers): its parent is the span of this run of the handler when one is recorded,
    // else the request's span.
    telemetry::PropagatedTrace outgoing_trace() const;

private:
    friend boost::json::storage_ptr detail::result_storage(const Context& ctx);
    detail::CallState* state_;
};

namespace detail {
template <class F>
inline constexpr bool takes_context = last_parameter_is<F, Context>::value;
// Parameters of a handler other than its Context.
template <class F>
inline constexpr std::size_t input_count = arity_of<F> - (takes_context<F> ? 1 : 0);
}  // namespace detail

using ToolContext = Context;
using PromptContext = Context;
using ResourceContext = Context;

}  // namespace mcp
