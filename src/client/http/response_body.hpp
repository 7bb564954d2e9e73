#pragma once
// Reading what an MCP server sends back over HTTP: the media type of a response, the body of a
// refusal (bounded), and an SSE body event by event across the connections of one stream.
#include "net/http_headers.hpp"
#include "net/http_stream.hpp"
#include "net/sse_parser.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

// Whether Content-Type names `media_type` (parameters aside, case aside).
bool has_media_type(const net::HttpHeaders& headers, std::string_view media_type);

// The body, or its first `limit` bytes (the stream is then cancelled: the rest is not read). A
// connection that fails mid-body leaves what came.
boost::asio::awaitable<std::string> read_bounded(net::HttpStream& stream, std::size_t limit);

// Where an SSE stream stands across its connections: the WHATWG last event id and reconnection
// time survive a reconnect.
struct SseCursor {
    std::string last_event_id;
    std::optional<std::chrono::milliseconds> retry;
};

struct StreamEnd {
    enum class How {
        ended,       // the body ended
        cut,         // the connection failed mid-body (dropped, idle too long, broken chunking)
        over_limit,  // a line or an event over the limit: the stream is unusable
        stopped,     // cancelled by us
    };
    How how = How::ended;
    std::string why;
    bool progress = false;  // an event, or a new event id, arrived
};

// Feeds the body to an SSE parser until it ends; `on_event` gets each event in order, on the
// caller's executor. The cursor is updated as the events come.
boost::asio::awaitable<StreamEnd> read_events(net::HttpStream& stream, SseCursor& cursor, std::size_t max_event_bytes,
                                              const std::function<void(net::SseEvent&&)>& on_event);

}  // namespace mcp::detail
