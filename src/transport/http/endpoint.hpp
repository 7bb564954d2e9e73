#pragma once
// One request on the MCP endpoint, in two parts, so that the common request costs no coroutine
// frame: begin_request decides, on the connection's thread and without waiting, whatever it can
// (a refusal; a call the core answered inline), and finish_request waits for the rest (a bearer
// token's check, the shared store, a response still being produced, an event stream).
#include "transport/http/caller.hpp"
#include "transport/http/http_context.hpp"
#include "transport/http/outbox.hpp"
#include "transport/http/response_writer.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <variant>

namespace mcp::detail {

class ResumableSession;

// A response the core is producing through `outbox`. `cancel`, the call's stop source (a
// 2026-07-28 request; without a state otherwise), is tripped when the client leaves before the
// response is written.
struct Delivery {
    std::shared_ptr<Outbox> outbox;
    std::stop_source cancel;
};

// What a request waits for before it can be answered.
struct CheckToken {};  // the bearer token's check, then the method
struct OpenStream {};  // GET: an event stream, after the session is looked up
struct EndSession {};  // DELETE
struct AdmitSession {  // initialize: the new session admitted by the shared store
    std::shared_ptr<ResumableSession> session;
    boost::json::value response;
    boost::json::value id;
};
struct ServeInSession {  // a 2025-11-25 message whose session the shared store has
    boost::json::value document;
    std::string session_id;
    boost::json::value id;
};
struct Waiting {
    Caller caller;
    std::variant<CheckToken, OpenStream, EndSession, AdmitSession, ServeInSession> what;
};

using RequestStep = std::variant<WholeResponse, Delivery, Waiting>;

// The part of a request decided without waiting. A WholeResponse is the answer, ready to write.
RequestStep begin_request(Request& request, const ConnectionPeer& peer, HttpContext& ctx);

// The rest of a request begin_request did not answer; returns whether the connection may be kept
// alive.
boost::asio::awaitable<bool> finish_request(HttpStream& stream, Request& request, RequestStep step, HttpContext& ctx);

}  // namespace mcp::detail
