#pragma once
// Asking the client, in either era. 2025: the requests go out on the call's stream and the handler
// waits on the mailbox for the answers (docs/adr/0010-client-requests.md). 2026: the answers come with the request
// (inputResponses, requestState); a missing one ends this run of the handler with
// InputRequiredResult, and the retry runs it again.
#include "server/client_requests/wire.hpp"

#include <boost/json/object.hpp>

#include <vector>

namespace mcp::detail {

struct CallState;

// Unwinds a handler whose input is not there yet (2026). Deliberately not a std::exception:
// handler code catching std::exception lets it pass. Should a handler swallow it anyway, the
// dispatcher still sees the pending requests and answers input_required.
struct InputRequired {};

// One call's client requests.
struct InputRounds {
    KeyCounter keys;
    // 2026: every answer at hand (from requestState and inputResponses), those this run used,
    // and the requests still unanswered.
    boost::json::object answers;
    boost::json::object used;
    std::vector<WireRequest> pending;
};

std::vector<InputAnswer> ask(CallState& call, const std::vector<InputRequest>& requests);

}  // namespace mcp::detail
