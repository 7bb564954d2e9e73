#pragma once
// The end of a request as the operator sees it: the request counter, the called entity's outcome
// and duration, the audit line (docs/adr/0016-operating-it.md).
#include <mcp/protocol/revision.hpp>

#include "server/call_metrics.hpp"

#include <boost/json/fwd.hpp>

namespace mcp::detail {

struct CallState;

// Once per answered request, with the era it was served in: ends its in-flight mark, counts it
// when metrics are on, and writes its audit line when it called a tool, prompt or resource.
// Ends the request's span too, with the error code of `response`, when it is given.
void observe_answer(CallState& call, Era era, Outcome outcome, const boost::json::value* response = nullptr);

}  // namespace mcp::detail
