#pragma once
// The library's own diagnostics logger. It writes to stderr only: on the stdio transport stdout
// carries protocol messages and nothing else.
#include <spdlog/logger.h>

namespace mcp::detail {

spdlog::logger& log();

}  // namespace mcp::detail
