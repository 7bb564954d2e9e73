#pragma once
// Newline-delimited JSON-RPC on stdin/stdout. Only protocol messages go to stdout; diagnostics go
// to stderr.
namespace mcp {

class Server;

struct StdioOptions {
    int input_fd = 0;
    int output_fd = 1;
};

// Serves until the input ends: then it stops waiting on anything that needs the client, lets the
// calls in flight finish, writes their responses and returns 0. SIGPIPE is ignored from then on,
// so a vanished reader is an error on write, not a killed process.
int serve_stdio(Server& server, StdioOptions options = {});

}  // namespace mcp
