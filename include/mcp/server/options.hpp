#pragma once
// Server-wide settings. mcp::run() fills them from flags, a config file and MCP_* variables.
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/types.hpp>

#include <chrono>
#include <cstddef>
#include <string>

namespace mcp {

// The pool every handler runs on (docs/adr/0003-execution-model.md).
struct ExecutionOptions {
    std::size_t core_threads = 0;          // 0: one per CPU, at least 2
    std::size_t max_threads = 2048;        // upper bound while handlers block
    std::size_t queue_capacity = 10000;    // calls waiting beyond this are refused
    std::chrono::milliseconds grow_after{20};      // a call waiting this long adds a thread
    std::chrono::milliseconds idle_timeout{30000}; // extra threads exit after this idle time
    std::size_t stack_size = 1024 * 1024;  // bytes per handler thread
};

struct ServerOptions {
    std::string instructions;  // sent in the initialize result
    std::size_t page_size = 100;  // items per tools/prompts/resources list page
    jsonrpc::Limits limits;
    // The level a 2025-era session starts at before the client calls logging/setLevel.
    LogLevel default_client_log_level = LogLevel::info;
    ExecutionOptions execution;
};

}  // namespace mcp
