#pragma once
// The audit log (ServerOptions::audit): one JSON line per tools/call, prompts/get and
// resources/read, saying who asked (the principal's subject), what was named, the outcome, how
// long it took, and, with AuditOptions::arguments, the arguments. Client text is JSON-escaped and
// bounded, so no line can forge another.
#include <mcp/server/options.hpp>

#include "server/call_metrics.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>

namespace mcp::detail {

struct CallState;

class AuditLog {
public:
    // Appends to the file (or writes to stderr); throws std::runtime_error when it cannot open it.
    explicit AuditLog(const AuditOptions& options);
    ~AuditLog();
    AuditLog(const AuditLog&) = delete;
    AuditLog& operator=(const AuditLog&) = delete;

    // `name`: the registered name, or the one the client sent for an unknown entity.
    void record(const CallState& call, std::string_view kind, std::string_view name, Outcome outcome,
                std::chrono::nanoseconds duration);

private:
    std::mutex mutex_;
    std::FILE* file_;
    bool owned_;
    bool arguments_;
};

}  // namespace mcp::detail
