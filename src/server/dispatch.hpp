#pragma once
// Request routing: which era's rules apply, validation in the order the spec gives, then the
// method: inline, on the handler pool, or as a long-lived listen stream. What each method is comes
// from protocol/methods.cpp; this binds each to the function that serves it.
#include "protocol/methods.hpp"
#include "server/call.hpp"
#include "server/core.hpp"
#include "server/method_binding.hpp"

#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

// nullptr for a method the protocol table lacks.
const Method* find_method(std::string_view name);

// Client notifications: initialized, cancelled… Unknown ones are ignored.
void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session);

// A client's answer to a request this server sent (2025): to the mailbox of the handler waiting
// for it, if it was sent to this session and is still awaited; otherwise dropped.
void deliver_response(ServerCore& core, const boost::json::value& message, const jsonrpc::Message& response,
                      const std::shared_ptr<Session>& session);

// Whether the core answers the 2025 request `message` on the calling thread without asking a
// shared store: ping, a listing, or a tool, prompt or resource declared runs_inline and not
// replayable (it never parks). Whatever else (a level or subscription change, tasks, a parked
// call, a pooled handler's hand-off back) may wait on the store.
bool answers_without_store(const ServerCore& core, const jsonrpc::Message& message);

// Serves a well-formed request.
void handle_request(ServerCore& core, const std::shared_ptr<CallState>& call, const Inbound& inbound);

// Runs a request to the end: the method, error mapping, 2026 result fields, the response. False
// when the call parked instead (a replayable handler waits for a 2025 client's answers).
bool run_call(const Method& method, const std::shared_ptr<CallState>& call);

// A parked call has its answers (or one request timed out): the handler runs again on the pool.
void resume_call(const std::shared_ptr<CallState>& call);
// A parked call was cancelled or its client went away: it ends, with no response.
void drop_call(const std::shared_ptr<CallState>& call);
// A parked call was ended to make room for another client's (docs/adr/0024-fair-limits.md): its
// client, which may still be there, is told so.
void evict_call(const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
