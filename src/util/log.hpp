#pragma once
// The library's own diagnostics logger. It writes to stderr only: on the stdio transport stdout
// carries protocol messages and nothing else.
#include <spdlog/logger.h>

#include <string_view>

namespace mcp::detail {

spdlog::logger& log();

// level: trace, debug, info, warn, error, critical, off. format: "text" or "json" (one object
// per line: time, level, logger, msg, and the fields of the request being served). Returns false
// for an unknown level or format.
bool configure_logging(std::string_view level, std::string_view format);

// The fields of the request the calling thread serves (request id, method, session, client,
// principal, trace and span), for JSON log lines: the source calls `add` once per field. The core
// sets it; util cannot see requests.
using LogFieldSink = void (*)(void* line, std::string_view name, std::string_view value);
using LogContextSource = void (*)(LogFieldSink add, void* line);
void set_log_context_source(LogContextSource source);

// Client text fit for a log line in either format: at most `max` bytes (then "…"), control
// characters as \xNN and bytes that are not UTF-8 as U+FFFD, so it can neither forge a line
// nor grow it without bound.
std::string printable(std::string_view text, std::size_t max = 200);

}  // namespace mcp::detail
