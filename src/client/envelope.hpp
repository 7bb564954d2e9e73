#pragma once
// What a client says about itself: the capabilities it declares (at initialize in 2025, in every
// request in 2026), and the 2026-07-28 _meta envelope of every request.
#include <mcp/client/options.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

inline constexpr std::string_view kTasksExtensionId = "io.modelcontextprotocol/tasks";
inline constexpr std::string_view kSubscriptionIdKey = "io.modelcontextprotocol/subscriptionId";
inline constexpr std::string_view kServerInfoKey = "io.modelcontextprotocol/serverInfo";

// From the handlers and options the application set, with ClientOptions::capabilities merged over.
boost::json::object client_capabilities(const ClientOptions& options);

struct Envelope {
    std::string protocol_version;
    boost::json::object capabilities;
    boost::json::object client_info;
    std::optional<LogLevel> log_level;
};

// Puts the envelope into params._meta, beside what _meta holds already.
void add_envelope(boost::json::object& params, const Envelope& envelope);

}  // namespace mcp::detail
