#pragma once
// What a server asks of the client (a 2025 server's requests, a 2026 result's input requests)
// answered with the application's handlers.
#include <mcp/client/options.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace mcp::detail {

// The result for `method`. Throws mcp::Error: -32601 for a method the client did not declare (no
// handler), -32602 for params it cannot read. The handler's own exceptions pass through.
boost::json::object answer_input(const ClientHandlers& handlers, const std::optional<std::vector<Root>>& roots,
                                 std::string_view method, const boost::json::object& params);

// The request as CallOptions::input_round takes it: an elicitation or a sampling request the
// handlers declare, readable, or a roots/list request when the client has roots (`has_roots`: roots
// set on the client; or handlers.roots); nothing for any other (answer_input then answers, or
// refuses, it).
std::optional<RoundRequest> round_request(const ClientHandlers& handlers, bool has_roots, std::string_view key,
                                          std::string_view method, const boost::json::object& params);
// The result for `request` from its answer (an accepted form filled from the schema's defaults).
// Throws std::logic_error for an answer of another kind.
boost::json::object round_result(const RoundRequest& request, RoundAnswer answer);

}  // namespace mcp::detail
