#pragma once
// What passes between gateway nodes when a 2026 retry of a mounted tool call reaches a node other
// than the one whose inner call waits between rounds (docs/adr/0029-gateway.md, decision 11):
// - the round ticket, which the outer requestState carries sealed: the node holding the call, its
//   id in that node's table, and the question it waits on (so that any node can read the answer
//   to it from the retry);
// - the resume, which the retry's node sends the owner: the answer, or the outer client's refusal;
// - the owner's replies to it: still working, no such call, the result, the error, or the next
//   round's ticket;
// - the retry's cancellation, which has the owner abandon the call it resumes for it.
// Each is one JSON text. Decoding gives nothing for a text over kMaxRelayPayload or that is not
// exactly one of these: payloads come from the store, which other programs may write to.
#include "bridge/mounted_call.hpp"

#include <mcp/protocol/content.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mcp::detail {

constexpr std::size_t kMaxRelayPayload = 4 * 1024 * 1024;

// The outer client's refusal of an inner request, as the inner server is to hear it.
struct Refusal {
    int code = 0;
    std::string message;
};
using Settlement = std::variant<OuterAnswer, Refusal>;

struct RoundTicket {
    std::string node;  // the mount (one per gateway process) whose table holds the call
    std::string call;  // its id there
    MountedCall::Question question;
};

struct ResumeMessage {
    std::string to;        // the owner's node
    std::string from;      // the retry's node, which the replies go to
    std::string exchange;  // names this resume in the replies
    std::string call;
    Settlement settlement;
};

struct ReplyMessage {
    struct Working {};  // the owner has the call, and its inner server is still at work
    struct Gone {};     // the owner holds no such call (expired, taken by another retry)
    struct Failed {
        int code = 0;
        std::string message;
        boost::json::value data;
    };
    using Body = std::variant<Working, Gone, CallToolResult, Failed, RoundTicket>;
    std::string to;
    std::string exchange;
    Body body;
};

struct CancelMessage {
    std::string to;
    std::string exchange;  // the resume it cancels
};

using RelayMessage = std::variant<ResumeMessage, ReplyMessage, CancelMessage>;

std::string encode(const RoundTicket& ticket);
std::optional<RoundTicket> decode_ticket(std::string_view text);

std::string encode(const ResumeMessage& message);
std::string encode(const ReplyMessage& message);
std::string encode(const CancelMessage& message);
std::optional<RelayMessage> decode_relay_message(std::string_view text);

}  // namespace mcp::detail
