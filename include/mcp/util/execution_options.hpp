#pragma once
// The elastic pool every handler runs on (docs/adr/0003-execution-model.md).
#include <chrono>
#include <cstddef>

namespace mcp {

struct ExecutionOptions {
    std::size_t core_threads = 0;                   // threads kept ready; 0: one per CPU, at least 2
    std::size_t max_threads = 2048;                 // upper bound while handlers block
    std::size_t queue_capacity = 10000;             // calls waiting beyond this are refused
    std::chrono::milliseconds grow_after{20};       // a call waiting this long adds a thread
    std::chrono::milliseconds idle_timeout{30000};  // extra threads exit after this idle time
    std::size_t stack_size = 1024 * 1024;           // bytes per handler thread
};

}  // namespace mcp
