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
// error_code: the JSON-RPC code of the answer, 0 when it is no error response. Ends the request's
// span too, with the error message of `response` when it is given.
void observe_answer(CallState& call, Era era, Outcome outcome, int error_code,
                    const boost::json::value* response = nullptr);
// The same for an answer at hand.
void observe_answer(CallState& call, Era era, const boost::json::value& response);

}  // namespace mcp::detail
