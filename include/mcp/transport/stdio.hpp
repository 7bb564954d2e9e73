#pragma once
// Newline-delimited JSON-RPC on stdin/stdout. Only protocol messages go to stdout; diagnostics go
// to stderr.
#include <mcp/server/request_context.hpp>

#include <memory>

namespace mcp {

class Server;

struct StdioOptions {
    int input_fd = 0;
    int output_fd = 1;
    // Who the process serves. stdio carries no token: whoever started the server is trusted with
    // it (mcp::run takes it from --stdio-subject and --stdio-scopes). Null: anonymous, and the
    // scopes tools declare are not checked.
    std::shared_ptr<const Principal> principal;
};

// Serves until the input ends: then it stops waiting on anything that needs the client, lets the
// calls in flight finish, writes their responses and returns 0. SIGPIPE is ignored from then on,
// so a vanished reader is an error on write, not a killed process.
int serve_stdio(Server& server, const StdioOptions& options = {});

}  // namespace mcp
