#pragma once
// The stdio transport of a client: it starts the server as a child process in a process group of
// its own and speaks newline-delimited JSON-RPC on its stdin and stdout (2026-07-28
// basic/transports/stdio.mdx).
//
//   mcp::Client client(std::make_shared<mcp::StdioTransport>(mcp::StdioServerParams{
//       .command = "npx", .args = {"-y", "@modelcontextprotocol/server-everything"}}));
//
// Shutdown follows the spec: stdin is closed, then after shutdown_grace SIGTERM, after another
// SIGKILL, each to the whole group (so that what the server started, such as npx's node, goes
// too). A server that exits on its own fails every call in flight at once; what it left running
// in its group is killed. The process ignores SIGPIPE once a server is started (a server that
// exits must not kill its client), unless the application handles SIGPIPE itself.
#include <mcp/client/stdio_limits.hpp>
#include <mcp/client/transport.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mcp {

struct StdioServerParams {
    std::string command;  // a path, or a name looked up in PATH
    std::vector<std::string> args;
    // Variables for the child: added to (and overriding) the client's environment, or, with
    // inherit_env false, the child's whole environment.
    std::vector<std::pair<std::string, std::string>> env;
    bool inherit_env = true;
    std::string cwd;  // empty: the client's
    // Resource limits of the child and what it starts (mcp/client/stdio_limits.hpp).
    StdioLimits limits;
    std::chrono::milliseconds shutdown_grace{2000};
    // A line of stdout longer than this is dropped.
    std::size_t max_message_bytes = 4 * 1024 * 1024;
    // stderr: a longer line is left out (a note of its length stands in), and at most this many
    // lines a second go on (the rest are counted, and the count reported as one line).
    std::size_t max_stderr_line_bytes = 8 * 1024;
    std::size_t max_stderr_lines_per_second = 100;
    // Messages waiting to be written while the server does not read its stdin; past this they fail.
    std::size_t max_queued_bytes = 64 * 1024 * 1024;
};

class StdioTransport final : public ClientTransport {
public:
    explicit StdioTransport(StdioServerParams params);
    ~StdioTransport() override;

    // Starts the child. Throws std::system_error when it cannot be started.
    void open(boost::asio::io_context& io, TransportEvents events) override;
    void send(OutboundMessage message) override;
    bool mirrors_headers() const override { return false; }
    void close() override;

    // The child's process id, which is also its process group's; 0 before open().
    int pid() const;

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

}  // namespace mcp
