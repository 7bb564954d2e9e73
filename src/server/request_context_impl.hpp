#pragma once
#include <mcp/server/request_context.hpp>

namespace mcp::detail {

// Registers the built-in accessors (trace context, log fields) with the global registry, once.
void register_request_context_accessors();

// Sets the request's trace context and log fields on the calling thread for the scope's life, so
// the context snapshot taken inside carries them to the handler; the thread's own values come
// back afterwards.
class RequestContextScope {
public:
    RequestContextScope(TraceContext trace, LogFields fields);
    ~RequestContextScope();
    RequestContextScope(const RequestContextScope&) = delete;
    RequestContextScope& operator=(const RequestContextScope&) = delete;

private:
    TraceContext saved_trace_;
    LogFields saved_fields_;
};

}  // namespace mcp::detail
