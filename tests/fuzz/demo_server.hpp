#pragma once
// The server the core and HTTP targets talk to: the demo's notes assistant (examples/demo) with a
// fixed key, two items per list page (so that cursors are handed out) and the library's logging
// off (a handler's error is an answer, not a finding, and printing it would slow the fuzzer down).
#include <mcp/server/server.hpp>

#include <memory>

namespace fuzzing {

std::unique_ptr<mcp::Server> make_demo_server();

}  // namespace fuzzing
