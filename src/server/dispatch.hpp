#pragma once
// Request routing: which era's rules apply, validation in the order the spec gives, then the
// method — inline, on the handler pool, or as a long-lived listen stream.
#include "server/call.hpp"
#include "server/core.hpp"

#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

// Returns the result object, or throws mcp::Error for an error response.
using MethodFn = boost::json::value (*)(ServerCore& core, CallState& call);

// Whether the handler this call would run was declared runs_inline (tools, prompts, resources).
using InlineProbe = bool (*)(const ServerCore& core, const CallState& call);

// Which caching hints a 2026-07-28 result carries.
enum class Cache { none, list, read };

struct Method {
    MethodFn run = nullptr;
    // Runs user code, so it runs on the handler pool; the others are quick and run inline.
    bool on_pool = false;
    // 2025 rules: allowed before initialize.
    bool before_initialize = false;
    bool legacy = true;  // exists in 2025-11-25 and earlier
    bool modern = true;  // exists in 2026-07-28
    Cache cache = Cache::none;
    // Takes inputResponses/requestState and may answer input_required (2026 multi-round trips).
    bool rounds = false;
    // For methods on the pool: lets a handler declared runs_inline skip it.
    InlineProbe runs_inline = nullptr;
};

const Method* find_method(std::string_view name);

// Client notifications: initialized, cancelled… Unknown ones are ignored.
void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session);

// A client's answer to a request this server sent (2025): to the mailbox of the handler waiting
// for it, if it was sent to this session and is still awaited; otherwise dropped.
void deliver_response(ServerCore& core, const boost::json::value& message, const jsonrpc::Message& response,
                      const std::shared_ptr<Session>& session);

// Serves a well-formed request.
void handle_request(ServerCore& core, const std::shared_ptr<CallState>& call, const Inbound& inbound);

// Runs a request to the end: the method, error mapping, 2026 result fields, the response.
void run_call(const Method& method, const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
