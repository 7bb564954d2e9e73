#pragma once
// The state behind mcp::Client and the path every call takes: the 2026 envelope, the result cache,
// the peer, and the input rounds of a multi-round-trip request. The typed methods (client.cpp,
// client_tasks.cpp, subscriptions.cpp) and the negotiation (connect.cpp) build on `start`.
#include "client/callback_queue.hpp"
#include "client/envelope.hpp"
#include "client/io_runner.hpp"
#include "client/mrtr.hpp"
#include "client/negotiation.hpp"
#include "client/peer.hpp"
#include "client/result_cache.hpp"
#include "client/tool_registry.hpp"
#include "util/handler_pool.hpp"

#include <mcp/client/client.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mcp::telemetry {
class Tracer;
}

namespace mcp {

// A listen stream's state, shared by its Subscription handle and the client that routes its
// acknowledgement.
struct Subscription::State {
    std::weak_ptr<Client::Impl> client;
    Era era = Era::stateless;
    std::int64_t id = 0;            // 2026: the id of the subscriptions/listen request
    std::vector<std::string> uris;  // 2025: the URIs subscribed to
    std::stop_source stop;          // 2026: cancels the listen request

    std::mutex mutex;
    std::condition_variable changed;
    std::optional<ListenFilter> acknowledged;
    bool ended = false;
    std::exception_ptr error;  // how it ended, when not by cancel()
};

// One logical call: what the application asked, whatever rounds it takes.
struct CallSpec {
    std::string method;
    boost::json::object params;  // without the envelope
    CallOptions options;
    std::vector<std::pair<std::string, std::string>> param_headers;
    bool long_lived = false;         // subscriptions/listen: no timeout
    std::optional<std::int64_t> id;  // the first round's id, chosen ahead (a listen stream's)
    // The completion reads a plain reply from its text (RequestSpec::reply_as_text), on the
    // 2025-11-25 wire, which has no rounds or cache that would need it parsed.
    bool reply_as_text = false;
};

struct Client::Impl : std::enable_shared_from_this<Client::Impl> {
    Impl(std::shared_ptr<ClientTransport> transport, ClientOptions options);
    ~Impl();
    // After construction: the peer, whose handlers hold this by weak pointer.
    void init();

    // The negotiation (connect.cpp).
    void connect(const CallOptions& options);
    void close();

    // Starts a call; `done` runs once, on the thread that settles it (never before start returns
    // when the answer comes from the network; at once from the cache or a closed peer).
    // `params` are read while start runs only: a round's request text is written before it returns.
    void start(std::shared_ptr<const CallSpec> call, int round, const boost::json::object& params,
               detail::Completion done);
    // Blocks until the call ends; throws its error.
    boost::json::value call(const std::shared_ptr<const CallSpec>& call);
    boost::json::value call(std::string method, boost::json::object params, const CallOptions& options);
    // Throws std::logic_error on the client's I/O thread, where waiting would deadlock.
    void check_may_block() const;
    void check_era(Era era, std::string_view what) const;
    // Answers a 2026 input request with the application's handlers; a request the client did not
    // declare is the server's mistake (mcp::ProtocolViolation).
    // The answers to a 2026 call's input requests: the call's own handlers, else the client's.
    detail::InputAnswerer input_answerer(const CallOptions& call);
    // The same for one round's `requests`: with CallOptions::input_round, its elicitation, sampling
    // and roots requests are put to it together first, and the answerer gives their answers.
    detail::InputAnswerer input_answerer(const CallOptions& call, const std::vector<detail::InputRequest>& requests);

    // A 2025 tools/call of `tool` asks for a task (params.task): ClientOptions::tasks, the tool
    // listed with task support, and the server's tasks capability for tools/call.
    bool asks_task(std::string_view tool) const;
    // Tasks (client_tasks.cpp). The task a tools/call reply is: 2026 `resultType: "task"`; 2025
    // `{task}`, when the call asked for one (`asked`: params.task). Nothing for a result.
    std::optional<Task> task_of_reply(const boost::json::value& result, bool asked) const;
    // Waits for the task's end and returns what the call would have: 2025 tasks/result; 2026 polls
    // tasks/get, answering its input requests with tasks/update. A failed task throws mcp::Error,
    // a cancelled one mcp::Cancelled.
    CallToolResult wait_for_task(std::string_view task_id, const CallOptions& options);
    // A call's own task: CallOptions::on_task hears of it, then wait_for_task. The call's stop
    // cancels the task too (tasks/cancel), whatever the wait ended with.
    CallToolResult follow_task(const Task& task, const CallOptions& options);

    // Negotiated state.
    Era era() const;
    std::string version() const;

    // Inbound.
    void on_server_request(detail::ServerRequest request);
    void on_notification(std::string_view method, const boost::json::object& params);
    void on_diagnostic(std::string_view line);
    void on_closed(const std::string& reason);
    // A 2026 listen stream's acknowledgement (subscriptions.cpp).
    void on_acknowledged(const boost::json::object& params);
    void notify_application(std::function<void()> callback);

    ClientOptions options;
    std::vector<std::string> versions;  // what the client may speak, newest first
    boost::json::object capabilities;
    boost::json::object client_info;
    std::shared_ptr<telemetry::Tracer> tracer;  // ClientOptions::tracing; null when off

    // Declared in this order so that they go in the reverse one: the pool's threads before the
    // state they touch, the peer's and the transport's Asio objects before the context they use.
    detail::IoRunner runner;
    detail::ResultCache cache;
    detail::ToolRegistry tools;
    std::shared_ptr<ClientTransport> transport;
    std::shared_ptr<detail::Peer> peer;
    detail::HandlerPool pool;
    std::shared_ptr<detail::CallbackQueue> notifications;

    mutable std::mutex mutex;
    std::condition_variable transport_closed;
    bool opened = false;
    bool closed = false;          // close() was called
    bool transport_done = false;  // the transport reported closed
    // Read on every call and written only by the negotiation: atomic, outside `mutex`.
    std::atomic<Era> era_{Era::stateless};
    std::string version_;
    Implementation server_info;
    boost::json::object server_capabilities;
    std::string instructions;
    std::vector<std::string> server_versions;
    std::optional<LogLevel> log_level;
    std::optional<std::vector<Root>> roots;
    struct EnvelopeText {
        std::string version;
        std::optional<LogLevel> log_level;
        std::shared_ptr<const std::string> members;
    };
    mutable EnvelopeText envelope_;
    std::unordered_map<std::int64_t, std::weak_ptr<Subscription::State>> listens;

private:
    // connect.cpp
    void negotiate(const CallOptions& options);
    detail::ProbeVerdict probe(const std::string& requested, const CallOptions& options);
    void adopt_discover(const boost::json::object& result, const std::string& version);
    void initialize(std::string_view preferred, const CallOptions& options);
    void set_negotiated(Era era, std::string version);

    void finish(std::shared_ptr<const CallSpec> call, int round, const boost::json::object& key,
                detail::Outcome outcome, detail::Completion done);
    void next_round(std::shared_ptr<const CallSpec> call, int round, const boost::json::object& result,
                    detail::Completion done);
    // The envelope's members for the current version and log level (rebuilt when either changes).
    std::shared_ptr<const std::string> envelope() const;
    // A call's own, when its CallOptions declare other capabilities or another log level.
    std::shared_ptr<const std::string> envelope(const CallOptions& call) const;
};

}  // namespace mcp
