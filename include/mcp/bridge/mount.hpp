#pragma once
// mcp::Mount: another MCP server's tools, prompts, resources and templates served by this one
// under a prefix, each call forwarded to it through an mcp::Client (docs/adr/0029-gateway.md).
//
//   mcp::Server server{{.name = "hub", .version = "1"}};
//   auto everything = mcp::mount(server, "everything", std::make_shared<mcp::StdioTransport>(
//       mcp::StdioServerParams{.command = "npx", .args = {"-y", "@modelcontextprotocol/server-everything"}}));
//   // server lists everything_echo, everything_add, ...; everything's list_changed updates them.
//
// Names: a tool or prompt `name` is `<prefix>_<name>`. URIs: `scheme://rest` is
// `scheme://<prefix>/rest` (`scheme:rest`, `scheme:<prefix>/rest`), templates alike; URIs in what
// comes back are rewritten the same way. A name or URI the server has already is left out (logged).
// An empty prefix serves the inner names and URIs as they are.
//
// Calls: the outer call's cancellation, progress and trace reach the inner call (its CLIENT span
// under the outer handler's span, Context::outgoing_trace()); an inner JSON-RPC error
// is thrown as the same mcp::Error; an inner server that cannot be reached (no client, the process
// died, the inner timeout) is a -32603 error naming the mount. The inner server's elicitation,
// sampling and roots requests during a call (a tool call, a prompt, a read) are put to the outer
// client (request_handlers()); a 2026 outer client answers them in rounds, while the one inner call
// waits in this process between them (a tool call's retry that reaches another node sharing the
// store, --store redis://…, is resumed here through it). The inner server's log messages during a
// call reach that call's client at its level. A 2026 inner call declares the outer caller's
// elicitation, sampling and roots capabilities and log level, so the inner server answers as it
// would that caller. URL elicitations reach a caller that declared elicitation.url, and a 2025
// inner server's notifications/elicitation/complete the 2025 session it asked.
//
// Subscriptions: a client's subscription to a mounted URI subscribes the inner server to the inner
// URI, once however many clients hear of it, until the last unsubscribes or its session ends; the
// inner resources/updated reach them under the mounted URI (the client built with handlers()). An
// inner server that did not declare resources.subscribe makes the subscription fail.
//
// Completions: completion/complete of a mounted prompt or template is asked of the inner server when
// it declares the completions capability (PromptSpec::complete, ResourceSpec::complete).
//
// Tasks: a mounted tool has the inner tool's task support. When the inner server answers a call with
// a task (its client built with ClientOptions::tasks, as mount() builds it), the outer call becomes
// a task too, if its client can take one; the inner client follows the inner task, its input
// requests (elicitation, sampling, roots; one round's together) reach the outer client through the
// outer task, and cancelling the outer task cancels the inner one.
#include <mcp/client/client.hpp>
#include <mcp/client/options.hpp>
#include <mcp/client/transport.hpp>
#include <mcp/client/types.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

class Server;

// What the inner server lists, each entry under its own name.
struct MountCatalog {
    std::vector<Tool> tools;
    std::vector<Prompt> prompts;
    std::vector<Resource> resources;
    std::vector<ResourceTemplate> templates;
};

// The client serving the mount now; null while there is none (the inner server restarts).
using MountClientSource = std::function<std::shared_ptr<Client>()>;

class Mount {
public:
    // Registers nothing yet: sync() or refresh() does. The server must outlive the mount. Throws
    // std::invalid_argument for a prefix with characters other than letters, digits, '_', '-', '.'.
    Mount(Server& server, std::string prefix, MountClientSource source);
    // Removes everything the mount registered.
    ~Mount();
    Mount(const Mount&) = delete;
    Mount& operator=(const Mount&) = delete;

    const std::string& prefix() const;

    // Makes the server's registrations of this mount equal to `catalog`: adds, replaces, removes.
    void sync(const MountCatalog& catalog);
    // Lists the inner server through the current client (every page) and syncs; one kind, or all.
    // Without a client it does nothing.
    void refresh();
    void refresh(ListKind kind);
    // Removes every registration (the inner server is gone for good).
    void clear();
    // Mounted calls in flight now (those of 2026 outer clients waiting between rounds included):
    // while there are any, the inner server must keep running.
    std::size_t calls_in_flight() const;

    // `handlers` with the inner server's elicitation, sampling and roots requests passed to the
    // outer client of the mounted call they belong to (those `handlers` sets stay its own), and its
    // log messages to that call's client after what `handlers.log` does. A request is refused
    // (-32600) unless exactly one call of the mount is in flight: a 2025 server does not say which
    // call it asks for; a log message without one goes to the library's log. The returned handlers
    // hold the mount weakly.
    ClientHandlers request_handlers(ClientHandlers handlers = {});
    // request_handlers(), and the inner server's list_changed reaching refresh(kind) and its
    // resources/updated reaching the outer subscribers, each after what `handlers` already did.
    ClientHandlers handlers(ClientHandlers handlers = {});

    // The outer name of an inner tool or prompt, and the outer URI of an inner one; nothing when it
    // cannot be mounted (too long, or a template whose scheme is a variable).
    std::optional<std::string> outer_name(std::string_view inner) const;
    std::optional<std::string> outer_uri(std::string_view inner) const;
    // The inner URI of an outer one; nothing when it is not this mount's.
    std::optional<std::string> inner_uri(std::string_view outer) const;

    struct State;  // the library's

private:
    std::shared_ptr<State> state_;
};

// A server's name made a prefix a mount accepts: characters other than letters, digits, '_', '-'
// and '.' become '_' ("my server" -> "my_server").
std::string mount_prefix(std::string_view server_name);

// Mounts a connected client: lists it now. It is live (its list_changed reach the mount) when it
// was built with Mount::handlers(); otherwise call refresh() when its lists change. Its tools that
// run only as tasks need it built with ClientOptions::tasks.
std::shared_ptr<Mount> mount(Server& server, std::string prefix, std::shared_ptr<Client> client);
// Builds the client over `transport` with the mount's handlers (after those of `options`) and
// ClientOptions::tasks, connects it and lists it; without tracing options of its own it shares the server's tracer as
// configured now (Server::tracer()). Throws what Client::connect throws.
std::shared_ptr<Mount> mount(Server& server, std::string prefix, std::shared_ptr<ClientTransport> transport,
                             ClientOptions options = {});

}  // namespace mcp
