#pragma once
// What a client declares and how it behaves (mcp::Client), and what one call may ask for.
#include <mcp/client/types.hpp>
#include <mcp/protocol/client_features.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/telemetry/propagated_trace.hpp>
#include <mcp/telemetry/tracing_options.hpp>
#include <mcp/util/execution_options.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace mcp::telemetry {
class Tracer;
}

namespace mcp {

// The application's side of the protocol. Every function runs on the client's callback pool,
// never on its I/O thread; the notification callbacks run one at a time, in arrival order.
struct ClientHandlers {
    // elicitation/create: a 2025 server's request, or a 2026 input request. Setting it declares
    // the elicitation capability (form mode; URL mode too with url_elicitation). Values the user
    // left out of an accepted form are filled from the schema's defaults.
    std::function<ElicitResult(const Elicitation&)> elicitation;
    bool url_elicitation = false;
    // notifications/elicitation/complete (2025-11-25): the URL elicitation of that id finished.
    std::function<void(const std::string& elicitation_id)> elicitation_complete;
    // sampling/createMessage. Setting it declares sampling (with tools when sampling_tools).
    std::function<SamplingResult(const SamplingRequest&)> sampling;
    bool sampling_tools = false;
    // roots/list answered by this at each request instead of ClientOptions::roots (a mount answers
    // with its caller's roots). Setting it declares roots (without listChanged).
    std::function<std::vector<Root>()> roots;

    // notifications/message.
    std::function<void(const LogMessage&)> log;
    // notifications/{tools,prompts,resources}/list_changed.
    std::function<void(ListKind)> list_changed;
    // notifications/resources/updated.
    std::function<void(const std::string& uri)> resource_updated;
    // notifications/tasks/status (2025) and notifications/tasks (2026, on a listen stream).
    std::function<void(const Task&)> task_status;
    // A line the server wrote to stderr (stdio). Without it, lines go to the library's log.
    std::function<void(std::string_view line)> server_stderr;
};

struct ClientOptions {
    Implementation info{.name = "mcp-cpp-client", .version = "0.1.0"};
    // "auto": 2026-07-28 server/discover, else a 2025 initialize (newest first, accepting
    // 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05). A version pins that revision.
    std::string protocol_version = "auto";
    ClientHandlers handlers;
    // The roots the client shares; set, they declare roots (listChanged) and answer roots/list.
    std::optional<std::vector<Root>> roots;
    // Takes tasks: 2026 declares the tasks extension, and the server may then answer a tool call
    // with a task; 2025 asks with params.task when calling a tool listed with task support
    // (execution.taskSupport "optional" or "required") of a server that declares tasks for
    // tools/call. call_tool and async_call_tool follow such a task to its end (CallOptions::on_task).
    bool tasks = false;
    // More capabilities to declare, merged over the ones above (an extension's settings).
    boost::json::object capabilities;
    // 2026: sent in every request's _meta; 2025: logging/setLevel after initialize.
    std::optional<LogLevel> log_level;

    std::chrono::milliseconds request_timeout{60'000};
    // A request that receives progress notifications keeps going until this, in all.
    std::chrono::milliseconds max_request_timeout{600'000};
    // How long the stdio probe (server/discover) waits before it takes the server for a legacy one.
    std::chrono::milliseconds probe_timeout{3'000};
    // Answered input_required rounds of one 2026 request before mcp::InputRoundsExceeded.
    int max_input_rounds = 10;
    // Pages one listing reads at most.
    std::size_t max_list_pages = 1'000;
    // Results kept for their ttlMs (2026 listings and reads); 0 turns the cache off.
    std::size_t cache_entries = 256;
    // Inbound messages over this are dropped (and counted).
    std::size_t max_message_bytes = 4 * 1024 * 1024;
    // Notifications waiting for their callbacks; more are dropped (and counted).
    std::size_t max_queued_notifications = 10'000;
    // Requests from a 2025 server being answered at once; more are refused.
    std::size_t max_server_requests = 64;

    // The host's I/O context, run by the host: transports and timers run on it. Null: the client
    // runs its own on one thread of its own.
    boost::asio::io_context* io_context = nullptr;
    // The pool the handlers run on.
    ExecutionOptions callbacks{.core_threads = 1, .max_threads = 64, .queue_capacity = 10'000};
    // OpenTelemetry: a CLIENT span per request, exported over OTLP/HTTP, its traceparent put in
    // the request's _meta (docs/adr/0030-tracing.md). Off while the endpoint is empty; close()
    // waits up to export_timeout for the spans still queued.
    telemetry::TracingOptions tracing;
    // A tracer to share instead (Server::tracer(): a gateway's upstream clients): the spans go to
    // its exporter under its resource, and `tracing` is not read. close() leaves it to its owner.
    std::shared_ptr<telemetry::Tracer> tracer;
};

// A roots/list request of a 2026 round (it has no parameters).
struct RootsListRequest {};

// One elicitation, sampling or roots request of a 2026 round, under the key the server named it by
// (CallOptions::input_round), and its answer (the roots for a roots/list request).
struct RoundRequest {
    std::string key;
    std::variant<Elicitation, SamplingRequest, RootsListRequest> request;
};
using RoundAnswer = std::variant<ElicitResult, SamplingResult, std::vector<Root>>;

// What one call may ask for. The defaults come from ClientOptions.
struct CallOptions {
    // Triggered: the call fails at once with mcp::Cancelled and the server is told.
    std::stop_token stop;
    std::optional<std::chrono::milliseconds> timeout;
    std::optional<std::chrono::milliseconds> max_total_timeout;
    // Asks for progress notifications; each one also restarts the timeout, up to max_total_timeout.
    // Runs on the callback pool, in order.
    std::function<void(const Progress&)> on_progress;
    // 2026: this call's input requests (its input_required rounds, its task's input) go to these,
    // with the key the server named each one by, instead of ClientHandlers' (a mount passes each
    // call's questions to that call's own caller). The capabilities are ClientHandlers'.
    std::function<ElicitResult(const Elicitation&, const std::string& key)> elicitation;
    std::function<SamplingResult(const SamplingRequest&, const std::string& key)> sampling;
    std::function<std::vector<Root>(const std::string& key)> roots;
    // 2026: the capabilities this call declares in its _meta instead of the client's (a mount
    // declares its caller's, so that the server answers as it would answer that caller): each one
    // named here replaces the client's of that name, a null one removes it, the others stay. The
    // 2025 wire ignores it (capabilities are the session's).
    std::optional<boost::json::object> capabilities;
    // 2026: the lowest level of log messages this call asks for in its _meta instead of
    // ClientOptions::log_level. The 2025 wire ignores it (Client::set_log_level is the session's).
    std::optional<LogLevel> log_level;
    // 2026: the elicitation, sampling and roots requests of one round of this call (an
    // input_required result, or its task's input) all at once, before `elicitation`, `sampling` and
    // `roots` would get them one by one: an answer for each, in order (std::logic_error otherwise).
    // A caller that passes them on can ask them together (a mount asks its own caller in one round).
    std::function<std::vector<RoundAnswer>(const std::vector<RoundRequest>&)> input_round;
    // call_tool and async_call_tool: the server answered with a task, which the call now follows to
    // its end (its result is still the call's). Runs on the thread that follows it, before the
    // first poll. The call's `stop` then cancels the task too (tasks/cancel).
    std::function<void(const Task&)> on_task;
    // Skips the result cache.
    bool fresh = false;
    // async_request and async_call_tool: `done` runs where the call settles (the client's I/O
    // thread; the calling thread for a cached result or a call refused before it left) instead of
    // on the callback pool, saving two thread hand-offs per call. It must return at once and never
    // block (no blocking call on this client from it); starting the next async call from it is fine.
    bool inline_completion = false;
    // The trace the call belongs to (W3C traceparent and tracestate), e.g. Context::outgoing_trace()
    // in a server's handler. With tracing the request's CLIENT span is its child (without one the
    // call starts a trace); without, it goes in the request's _meta as it is. (Optional, so that
    // an empty CallOptions owns nothing: GCC 12 destroys a `{}` argument inside co_await twice.)
    using Trace = telemetry::PropagatedTrace;
    std::optional<Trace> trace;
};

}  // namespace mcp
