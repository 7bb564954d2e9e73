#pragma once
#include <mcp/server/request_context.hpp>

namespace mcp::detail {

// Registers the built-in accessors (trace context, log fields) with the global registry, once.
void register_request_context_accessors();

struct CallState;

// Sets the call's trace context and log fields on the calling thread for the scope's life, so
// the context snapshot taken inside carries them to the handler; the thread's own values come
// back afterwards. The log fields are written out only when something reads them (a log line, a
// snapshot, current_log_fields()): a call served inline with logging off never builds them.
// `call` outlives the scope.
class RequestContextScope {
public:
    explicit RequestContextScope(const CallState& call);
    ~RequestContextScope();
    RequestContextScope(const RequestContextScope&) = delete;
    RequestContextScope& operator=(const RequestContextScope&) = delete;

private:
    TraceContext saved_trace_;
    LogFields saved_fields_;
    const CallState* saved_source_;
};

}  // namespace mcp::detail
