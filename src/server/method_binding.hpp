#pragma once
// The function that serves each method: the protocol's, bound in dispatch.cpp, and those an
// application or an extension registers (custom_methods.hpp).
#include "protocol/methods.hpp"

#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {
class Session;
namespace jsonrpc {
struct Message;
}
}  // namespace mcp

namespace mcp::detail {

struct ServerCore;
struct CallState;

// A request's result object, or throws mcp::Error for an error response.
using MethodFn = boost::json::value (*)(ServerCore& core, CallState& call);
// A client notification.
using NotificationFn = void (*)(ServerCore& core, const jsonrpc::Message& message,
                                const std::shared_ptr<Session>& session);
// Whether the handler this call would run was declared runs_inline (tools, prompts, resources).
using InlineProbe = bool (*)(const ServerCore& core, const CallState& call);
// The OAuth scopes the entity a call names declares (tools, prompts, resources).
using ScopesProbe = std::vector<std::string> (*)(const ServerCore& core, std::string_view target);

struct Method {
    const MethodInfo* info = nullptr;
    MethodFn run = nullptr;             // requests (a stream's is start_listen, called apart)
    NotificationFn notify = nullptr;    // notifications
    InlineProbe runs_inline = nullptr;  // user code that may skip the handler pool
    ScopesProbe scopes = nullptr;       // entities that may declare required scopes
};

}  // namespace mcp::detail
