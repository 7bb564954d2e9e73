#pragma once
// The library's own diagnostics logger. It writes to stderr only: on the stdio transport stdout
// carries protocol messages and nothing else.
#include <spdlog/logger.h>

#include <string_view>

namespace mcp::detail {

spdlog::logger& log();

// level: trace, debug, info, warn, error, critical, off. format: "text" or "json" (one object
// per line: time, level, logger, msg). Returns false for an unknown level or format.
bool configure_logging(std::string_view level, std::string_view format);

}  // namespace mcp::detail
