#pragma once
// The method table: which function serves each JSON-RPC method, and how it runs.
#include "server/call.hpp"
#include "server/core.hpp"

#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

// Returns the result object, or throws mcp::Error for an error response.
using MethodFn = boost::json::value (*)(ServerCore& core, CallState& call);

struct Method {
    MethodFn run = nullptr;
    // Runs user code, so it runs on the handler pool; the others are quick and run inline.
    bool on_pool = false;
    // Allowed before initialize on the 2025 wire.
    bool before_initialize = false;
};

const Method* find_method(std::string_view name);

// Client notifications: initialized, cancelled, roots/list_changed… Unknown ones are ignored.
void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session);

// Runs a request to the end: the method, error mapping, and the response to the call's sink.
void run_call(const Method& method, const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
