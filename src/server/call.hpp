#pragma once
// The state of one JSON-RPC request while it is served.
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/blocking.hpp>
#include <mcp/server/context_snapshot.hpp>
#include <mcp/server/exchange.hpp>
#include <mcp/server/sink.hpp>

#include "server/client_requests/parking.hpp"
#include "server/client_requests/rounds.hpp"
#include "sessions/in_flight.hpp"
#include "sessions/session_state.hpp"
#include "telemetry/span.hpp"
#include "util/client_quota.hpp"
#include "util/metrics.hpp"

#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>

namespace mcp::detail {

struct ServerCore;
struct Method;
class EntityMetrics;
class TaskSink;

// A call is in flight for its session (InFlightCall: notifications/cancelled reaches it there).
struct CallState : InFlightCall, std::enable_shared_from_this<CallState> {
    CallState(ServerCore& core, boost::json::value document, std::shared_ptr<CallSink> sink,
              std::shared_ptr<Session> session);

    ServerCore& core;
    boost::json::value document;  // owns the text every view below points into
    // Where larger results (list pages) are built: the message's arena when the server parsed
    // it, else default storage.
    boost::json::storage_ptr scratch;
    jsonrpc::Message message;
    std::shared_ptr<CallSink> sink;
    std::shared_ptr<Session> session;
    const Method* method = nullptr;  // once admitted
    std::optional<Exchange> exchange;
    // A copy of the HTTP request metadata headers (2026-07-28), when there were any.
    std::optional<RequestHeaders> headers;

    struct RequestStop {
        std::stop_source* source;
        void operator()() const noexcept { source->request_stop(); }
    };
    std::optional<std::stop_callback<RequestStop>> transport_cancel;

    InputRounds input;  // what the handler asked of the client
    // Runs on the transport's thread (the handler was declared runs_inline): it must not wait.
    bool runs_inline = false;
    // The handler was declared replayable: a 2025 call parks instead of holding its thread while
    // the client answers, and the handler runs again with the answers.
    bool replayable = false;
    std::shared_ptr<ParkedRound> parked;  // the last round it parked for
    // Tasks (server/tasks/): the call may become one (a tool with task support, a client that can
    // take a task), and once it is, the task its results go to. `sink` is then the task too.
    bool may_become_task = false;
    std::shared_ptr<TaskSink> task;
    // From the task's start to the end of that run of its handler: a long job, so the handler pool
    // replaces its thread at once rather than letting it hold back the calls queued behind it.
    std::optional<BlockingScope> task_run;
    // The thread-local context the handler runs with, each time it runs on the pool.
    std::optional<ContextSnapshot> snapshot;

    std::mutex progress_mutex;
    std::optional<double> last_progress;

    // For metrics, logs and the audit log (docs/adr/0016-operating-it.md).
    std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now();
    TraceContext trace;  // the caller's trace and this request's span, if any
    // The recorded spans (tracing on, the trace sampled): the request's SERVER span, and its
    // handler's while the handler runs (server/call_span.hpp).
    std::unique_ptr<telemetry::SpanData> span;
    std::unique_ptr<telemetry::SpanData> handler_span;
    const EntityMetrics* entity = nullptr;  // the registered tool, prompt or resource it called
    std::optional<metrics::GaugeScope> in_flight;
    // One of its client's places for calls of user code, from its admission to the end of its
    // first run on the pool (ClientQuotas::calls).
    std::optional<ClientQuota::Place> client_place;

    // The params object, or an empty one.
    const boost::json::object& params() const;
    // Who its client is, for the bounds kept per client (util/client_key.hpp); once admitted.
    std::string client() const;

    // Frees the call's id in its session before the answer goes out; hold the result until the
    // answer is written (a closing stdio session waits for it). Empty when the call was not tracked.
    std::optional<SessionState::Answering> untrack();
};

}  // namespace mcp::detail
