#pragma once
// Request routing: which era's rules apply, validation in the order the spec gives, then the
// method: inline, on the handler pool, or as a long-lived listen stream. What each method is comes
// from protocol/methods.cpp; this binds each to the function that serves it.
#include "protocol/methods.hpp"
#include "server/call.hpp"
#include "server/core.hpp"

#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

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

// nullptr for a method mcp-cpp does not serve.
const Method* find_method(std::string_view name);

// Client notifications: initialized, cancelled… Unknown ones are ignored.
void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session);

// A client's answer to a request this server sent (2025): to the mailbox of the handler waiting
// for it, if it was sent to this session and is still awaited; otherwise dropped.
void deliver_response(ServerCore& core, const boost::json::value& message, const jsonrpc::Message& response,
                      const std::shared_ptr<Session>& session);

// Serves a well-formed request.
void handle_request(ServerCore& core, const std::shared_ptr<CallState>& call, const Inbound& inbound);

// Runs a request to the end: the method, error mapping, 2026 result fields, the response. False
// when the call parked instead (a replayable handler waits for a 2025 client's answers).
bool run_call(const Method& method, const std::shared_ptr<CallState>& call);

// A parked call has its answers (or one request timed out): the handler runs again on the pool.
void resume_call(const std::shared_ptr<CallState>& call);
// A parked call was cancelled or its client went away: it ends, with no response.
void drop_call(const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
