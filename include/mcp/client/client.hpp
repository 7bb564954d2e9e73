#pragma once
// mcp::Client: a C++ host's connection to one MCP server, of either revision (2026-07-28 with its
// per-request metadata and multi-round-trip requests, or 2025-11-25 and older with initialize),
// over any ClientTransport.
//
//   auto client = mcp::Client(std::make_shared<mcp::StdioTransport>(mcp::StdioServerParams{
//       .command = "mcp-cpp-demo", .args = {"--stdio"}}));
//   client.connect();
//   for (const mcp::Tool& tool : client.tools()) std::cout << tool.name << '\n';
//   auto result = client.call_tool("echo", {{"text", "hi"}});
//
// Every method may be called from any number of threads at once and blocks until its answer,
// except from the client's own I/O thread (std::logic_error). async_request completes on the
// client's callback pool; <mcp/client/asio.hpp> turns it into awaitables.
#include <mcp/client/errors.hpp>
#include <mcp/client/options.hpp>
#include <mcp/client/pages.hpp>
#include <mcp/client/transport.hpp>
#include <mcp/client/types.hpp>
#include <mcp/json/bind.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/revision.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp {

class Client;

// An open subscriptions/listen stream (2026), or the resources/subscribe calls standing in for one
// (2025). Cancelled when destroyed; it must not outlive its client's close().
class Subscription {
public:
    Subscription() = default;
    ~Subscription();
    Subscription(Subscription&&) noexcept;
    Subscription& operator=(Subscription&&) noexcept;

    // What the server agreed to send (2026: its acknowledgement; 2025: what was asked).
    const ListenFilter& acknowledged() const { return acknowledged_; }
    // Ends the stream (2026: notifications/cancelled or the stream closed; 2025: resources/unsubscribe).
    void cancel();
    // False once cancelled, or once the server ended it.
    bool active() const;

    struct State;  // the library's

private:
    friend class Client;
    std::shared_ptr<State> state_;
    ListenFilter acknowledged_;
};

class Client {
public:
    explicit Client(std::shared_ptr<ClientTransport> transport, ClientOptions options = {});
    // close().
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Opens the transport and agrees on a protocol version (ClientOptions::protocol_version).
    // Throws mcp::IncompatibleServer when there is none both speak.
    void connect(const CallOptions& options = {});
    // Fails every call in flight with mcp::ConnectionClosed, closes the transport and waits until
    // it is done (stdio: the server has exited or been killed). Idempotent.
    void close();

    // ---- What the server said about itself (after connect).
    Era era() const;
    const std::string& protocol_version() const;
    const Implementation& server_info() const;
    const boost::json::object& server_capabilities() const;
    const std::string& instructions() const;
    // 2026: server/discover's supportedVersions; 2025: the negotiated version.
    const std::vector<std::string>& server_versions() const;

    // ---- Any method.
    // The result object as the server sent it, after 2026 input rounds; a JSON-RPC error throws
    // mcp::Error with the server's code, message and data.
    boost::json::value request(std::string_view method, boost::json::object params = {},
                               const CallOptions& options = {});
    // The same without blocking: `done` runs on the callback pool with the error or the result.
    void async_request(std::string method, boost::json::object params, CallOptions options,
                       std::function<void(std::exception_ptr, boost::json::value)> done);
    void notify(std::string_view method, boost::json::object params = {});
    // Runs `then` on the callback pool once every notification received so far has been handed to
    // its ClientHandlers function (they run one at a time, in arrival order): an async call's
    // completion that must come after the log messages the server sent before its result. False,
    // and `then` never runs, when the notification queue is full or the client is closing.
    bool after_notifications(std::function<void()> then);

    // ---- Tools.
    Page<Tool> list_tools(const std::optional<std::string>& cursor = {}, const CallOptions& options = {});
    Pages<Tool> tools(const CallOptions& options = {});
    std::vector<Tool> all_tools(const CallOptions& options = {});
    // The result; structuredContent is checked against the outputSchema of the tool's listing
    // (mcp::OutputSchemaMismatch). A tool's own failure is a result with is_error, not a throw.
    CallToolResult call_tool(std::string_view name, boost::json::object arguments = {},
                             const CallOptions& options = {});
    template <class Arguments>
    requires json::detail::is_described_struct<Arguments> CallToolResult call_tool(std::string_view name,
                                                                                   const Arguments& arguments,
                                                                                   const CallOptions& options = {}) {
        return call_tool(name, json::to_json(arguments).as_object(), options);
    }
    void async_call_tool(std::string name, boost::json::object arguments, CallOptions options,
                         std::function<void(std::exception_ptr, CallToolResult)> done);

    // ---- Prompts.
    Page<Prompt> list_prompts(const std::optional<std::string>& cursor = {}, const CallOptions& options = {});
    Pages<Prompt> prompts(const CallOptions& options = {});
    std::vector<Prompt> all_prompts(const CallOptions& options = {});
    GetPromptResult get_prompt(std::string_view name, const std::map<std::string, std::string>& arguments = {},
                               const CallOptions& options = {});

    // ---- Resources.
    Page<Resource> list_resources(const std::optional<std::string>& cursor = {}, const CallOptions& options = {});
    Pages<Resource> resources(const CallOptions& options = {});
    std::vector<Resource> all_resources(const CallOptions& options = {});
    Page<ResourceTemplate> list_resource_templates(const std::optional<std::string>& cursor = {},
                                                   const CallOptions& options = {});
    Pages<ResourceTemplate> resource_templates(const CallOptions& options = {});
    std::vector<ResourceTemplate> all_resource_templates(const CallOptions& options = {});
    ReadResourceResult read_resource(std::string_view uri, const CallOptions& options = {});
    // 2025: resources/subscribe and resources/unsubscribe. (2026 has listen() instead: these throw
    // std::logic_error there.)
    void subscribe(std::string_view uri, const CallOptions& options = {});
    void unsubscribe(std::string_view uri, const CallOptions& options = {});
    // Notifications for what the filter names go to ClientHandlers. 2026: subscriptions/listen,
    // returning once the server acknowledged it; 2025: resources/subscribe for each URI (list
    // changes come unasked).
    Subscription listen(const ListenFilter& filter, const CallOptions& options = {});

    // ---- Prompts' and templates' arguments.
    CompletionResult complete(const CompletionRef& ref, std::string_view argument, std::string_view value,
                              const std::map<std::string, std::string>& context = {}, const CallOptions& options = {});

    // ---- Logging, liveness, roots.
    // 2025: logging/setLevel; 2026: the level goes in every request's _meta from now on.
    void set_log_level(LogLevel level);
    // 2025: ping. 2026 has none: a server/discover past the cache stands in.
    void ping(const CallOptions& options = {});
    // Replaces the roots the client shares and tells a 2025 server (notifications/roots/list_changed).
    // The client must have declared roots (ClientOptions::roots).
    void set_roots(std::vector<Root> roots);

    // ---- Tasks: 2025-11-25 experimental tasks and the 2026-07-28 tasks extension (SEP-2663).
    // Calls a tool as a task: 2025 asks with params.task; 2026 needs ClientOptions::tasks, and the
    // server decides. The server may answer at once: then the result, not a task.
    std::variant<CallToolResult, Task> call_tool_as_task(std::string_view name, boost::json::object arguments = {},
                                                         std::optional<std::int64_t> ttl_ms = {},
                                                         const CallOptions& options = {});
    Task get_task(std::string_view task_id, const CallOptions& options = {});
    // Waits for the task's end and returns what the call would have: 2025 tasks/result; 2026 polls
    // tasks/get at the task's interval, answering its input requests with tasks/update. A task that
    // failed throws mcp::Error, one cancelled mcp::Cancelled.
    CallToolResult task_result(std::string_view task_id, const CallOptions& options = {});
    void cancel_task(std::string_view task_id, const CallOptions& options = {});
    // 2025 only (2026 has no tasks/list).
    Page<Task> list_tasks(const std::optional<std::string>& cursor = {}, const CallOptions& options = {});

    // ---- The client itself.
    ClientStats stats() const;
    // Drops every cached result (2026 ttlMs).
    void clear_cache();

private:
    friend class Subscription;
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp
