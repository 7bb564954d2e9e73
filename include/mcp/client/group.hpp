#pragma once
// mcp::ClientGroup: a host's connections to several MCP servers, as one catalog. Each server gets a
// Client of its own (its own process or connection, environment and headers), connected in the
// background and reconnected with a bounded backoff when it goes away; one server's failure never
// takes the others down. The group lists every server's tools, prompts, resources and templates to
// the last page, lists them again when a server says they changed, and routes each call to the
// server that owns the name.
//
//   mcp::ClientGroup group;
//   for (auto& server : mcp::read_server_config("claude_desktop_config.json")) group.add(std::move(server));
//   group.wait_connected(std::chrono::seconds(30));
//   for (const mcp::GroupTool& tool : group.tools()) std::cout << tool.name << '\n';
//   auto result = group.call_tool("filesystem_read_file", {{"path", "/tmp/notes.txt"}});
//
// Names: a tool or prompt keeps its own name unless another server has one of that name; then
// each of them is "<server>_<name>" (GroupNaming::prefix_collisions, the default), so that no
// server can take over a name another one serves. prefix_always prefixes every name, and
// ClientGroupOptions::name replaces the rule. In the prefix, characters of the server's name other
// than letters, digits, '_' and '-' become '_' (the names models accept). Resources keep their URIs.
//
// Threads: each server has a thread of its own that connects, lists and reconnects it; calls run
// on the caller's thread, on the owning server's Client. Every method may be called from any
// number of threads at once.
#include <mcp/client/client.hpp>
#include <mcp/client/server_config.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

enum class ServerStatus {
    connecting,    // the first attempt is under way
    connected,     // connected and its lists read
    reconnecting,  // it went away or an attempt failed; the next one comes after the backoff
    failed,        // given up: too many failures in a row, or a failure retrying cannot mend
    closed,        // removed, or the group closed
};
std::string_view to_string(ServerStatus status);

struct ServerState {
    std::string name;
    ServerStatus status = ServerStatus::connecting;
    std::string error;  // the last failure, for people; empty once connected
    int failures = 0;   // attempts that failed in a row
    // While connected:
    std::string protocol_version;
    Implementation server_info;
};

// What the group lists: the name it exposes, the server that owns it, and the server's own entry.
struct GroupTool {
    std::string name;
    std::string server;
    Tool tool;  // tool.name is the server's own name
};
struct GroupPrompt {
    std::string name;
    std::string server;
    Prompt prompt;
};
struct GroupResource {
    std::string server;
    Resource resource;
};
struct GroupResourceTemplate {
    std::string server;
    ResourceTemplate resource_template;
};

enum class GroupNaming {
    prefix_collisions,  // "<server>_<name>" for names more than one server has, the name otherwise
    prefix_always,      // "<server>_<name>" for every name: stable whatever servers join
};

// What the name hook decides on.
struct NameRequest {
    std::string_view server;
    std::string_view name;  // the server's own
    ListKind kind;          // tools or prompts
    bool collides;          // another connected server lists the same name of this kind
};

struct ReconnectPolicy {
    // The wait before the n-th attempt in a row is initial_delay * 2^(n-1), at most max_delay, of
    // which a random half is taken off (so that hosts restarted together do not call together).
    std::chrono::milliseconds initial_delay{500};
    std::chrono::milliseconds max_delay{30'000};
    // Failures in a row before the server is given up (ServerStatus::failed; reconnect() starts
    // again). A connection that lasted max_delay or longer ends a run of failures.
    int max_failures = 10;
};

struct ClientGroupOptions {
    // Each server's Client options (its handlers may tell the servers apart by the config's name).
    // The group adds its own list_changed handler before the one returned, which still runs.
    std::function<ClientOptions(const ServerConfig&)> client_options;
    GroupNaming naming = GroupNaming::prefix_collisions;
    // Replaces the naming rule. Names still equal afterwards are left out of the lists (and logged),
    // so that a call never goes to a server it was not meant for.
    std::function<std::string(const NameRequest&)> name;
    ReconnectPolicy reconnect;
    // One attempt's connect (and the first listing), in all.
    std::chrono::milliseconds connect_timeout{30'000};
    // How a server's transport is made; mcp::make_transport unless given (tests and hosts that
    // bring their own transports set it).
    std::function<std::shared_ptr<ClientTransport>(const ServerConfig&)> make_transport;
    // A server's status changed. Runs on that server's thread; it may call the group.
    std::function<void(const ServerState&)> on_state;
    // The group's lists changed (a server connected, went away or changed its lists).
    std::function<void()> on_change;
};

// A call named a server that is not connected (reconnecting, failed, closed).
class ServerUnavailable : public ClientFailure {
public:
    ServerUnavailable(const std::string& server, ServerStatus status, const std::string& error);
    const std::string& server() const noexcept { return server_; }
    ServerStatus status() const noexcept { return status_; }

private:
    std::string server_;
    ServerStatus status_;
};

class ClientGroup {
public:
    explicit ClientGroup(ClientGroupOptions options = {});
    // close().
    ~ClientGroup();
    ClientGroup(const ClientGroup&) = delete;
    ClientGroup& operator=(const ClientGroup&) = delete;

    // Adds a server and starts connecting it; returns at once. Throws std::invalid_argument for a
    // name the group has already, and std::logic_error after close().
    void add(ServerConfig server);
    // Closes the server (stdio: it exits) and forgets it; returns when it is done. False when the
    // group has no server of that name.
    bool remove(std::string_view server);
    // Starts a new attempt now, whatever the server's state (a failed one included).
    bool reconnect(std::string_view server);
    // Waits until every server is connected: true; false at the timeout or as soon as one has failed.
    bool wait_connected(std::chrono::milliseconds timeout) const;
    // Waits while the server's attempt is under way (connecting), at most `timeout`, woken by its
    // state changes: its state then; nothing when the group has no server of that name (removed
    // meanwhile included) or is closed.
    std::optional<ServerState> wait_attempt(std::string_view server, std::chrono::milliseconds timeout) const;
    // Closes every server, in parallel, and returns when all are done. Idempotent.
    void close();

    std::vector<ServerState> servers() const;
    std::optional<ServerState> server(std::string_view name) const;
    // The server's Client while it is connected, for anything the group does not route
    // (subscriptions, completions, tasks); null otherwise. It must not be closed by the caller.
    std::shared_ptr<Client> client(std::string_view server) const;

    // ---- The lists of every connected server, in the order the servers were added.
    std::vector<GroupTool> tools() const;
    std::vector<GroupPrompt> prompts() const;
    std::vector<GroupResource> resources() const;
    std::vector<GroupResourceTemplate> resource_templates() const;

    // ---- Calls, routed by the group's names. An unknown name throws std::invalid_argument; a
    // server that is not connected, mcp::ServerUnavailable; the rest is the Client's.
    CallToolResult call_tool(std::string_view name, boost::json::object arguments = {},
                             const CallOptions& options = {});
    GetPromptResult get_prompt(std::string_view name, const std::map<std::string, std::string>& arguments = {},
                               const CallOptions& options = {});
    // The server that listed the URI, or else the one whose template matches it; a URI several
    // servers claim (or none) throws std::invalid_argument: name the server then.
    ReadResourceResult read_resource(std::string_view uri, const CallOptions& options = {});
    ReadResourceResult read_resource(std::string_view server, std::string_view uri, const CallOptions& options = {});

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp
