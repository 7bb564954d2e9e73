#pragma once
// Asking the client, in either era. 2025: the requests go out on the call's stream and the handler
// waits on the mailbox for the answers (docs/adr/0010-client-requests.md). 2026: the answers come with the request
// (inputResponses, requestState); a missing one ends this run of the handler with
// InputRequiredResult, and the retry runs it again.
#include "server/client_requests/wire.hpp"

#include <mcp/sessions/session.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct CallState;
struct ServerCore;

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
    // 2026: the handler's own state, from the requestState and for the next one.
    std::string handler_state;
    // 2025, replayable handlers: what came back for each request sent to the client, by key: the
    // client's response message, or nothing when it did not come in time.
    std::map<std::string, std::optional<boost::json::value>, std::less<>> replies;
};

std::vector<InputAnswer> ask(CallState& call, const std::vector<InputRequest>& requests);

// 2025: how long the client has to answer a request of this kind.
std::chrono::milliseconds timeout_of(const ServerCore& core, InputKind kind);
// 2025: a request id the client cannot guess or reuse for another session. `trace_note`
// (round_span.hpp's answer_trace_note) goes sealed in it, for the node the answer reaches.
std::string new_request_id(ServerCore& core, const Session& session, std::string_view trace_note);
// What new_request_id sealed as its trace note, from the id's plaintext; empty when none.
std::string_view trace_note_of(std::string_view plaintext);
// 2025: tells the client to drop a request nobody waits for any more.
void cancel_on_client(CallState& call, const std::string& id, std::string_view reason);

}  // namespace mcp::detail
