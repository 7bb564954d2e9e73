#pragma once
// What a client says about itself: the capabilities it declares (at initialize in 2025, in every
// request in 2026), and the 2026-07-28 _meta envelope of every request.
#include <mcp/client/options.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>

#include <cstdint>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

inline constexpr std::string_view kTasksExtensionId = "io.modelcontextprotocol/tasks";
inline constexpr std::string_view kSubscriptionIdKey = "io.modelcontextprotocol/subscriptionId";
inline constexpr std::string_view kServerInfoKey = "io.modelcontextprotocol/serverInfo";

// From the handlers and options the application set, with ClientOptions::capabilities merged over.
boost::json::object client_capabilities(const ClientOptions& options);

// What one call declares (CallOptions::capabilities): `declared`, each capability `call` names
// replaced by it, or removed when it is null.
boost::json::object capabilities_for_call(boost::json::object declared, const boost::json::object& call);

// The 2026-07-28 envelope every request carries in params._meta (protocol version, capabilities,
// client info, log level), serialized once as JSON object members without the braces: it changes
// only when the version or the log level does.
std::string envelope_members(std::string_view protocol_version, const boost::json::object& capabilities,
                             const boost::json::object& client_info, std::optional<LogLevel> log_level);

// The text of a request whose params._meta starts with `members` (envelope_members) and then
// `trace` (trace_members); what _meta held already follows, less the keys those set. Both empty:
// the plain request. So a traced request is written without a copy of its params.
std::string request_text(std::int64_t id, std::string_view method, const boost::json::object& params,
                         std::string_view members, std::string_view trace = {});

// `"traceparent":"...","tracestate":"..."` (tracestate only when not empty): _meta members.
std::string trace_members(std::string_view traceparent, std::string_view tracestate);

}  // namespace mcp::detail
