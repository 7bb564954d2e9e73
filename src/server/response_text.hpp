#pragma once
// A successful response written straight as JSON text, for a sink that writes text
// (CallSink::takes_text): the envelope and the 2026-07-28 stamps (resultType, serverInfo, caching
// hints) go around the result's own text, where the value path copies the server's info into the
// result, wraps it in an envelope object and walks all of it again to write it.
#include <mcp/protocol/revision.hpp>

#include "protocol/methods.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace mcp::detail {

struct ServerCore;

// The text of json_text(make_result(id, result)) after the stamps of stamp_stateless_result, byte
// for byte; nothing when the result is not an object or already has one of the members a stamp
// would set or fill in (it then takes the value path).
std::optional<std::string> response_text(const ServerCore& core, const boost::json::value& id, Era era, Cache cache,
                                         const boost::json::value& result);

}  // namespace mcp::detail
