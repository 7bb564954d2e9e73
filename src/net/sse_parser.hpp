#pragma once
// Server-Sent Events read incrementally, by the WHATWG rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
// lines end with CR, LF or CRLF (a CRLF split between two reads is one line end), a leading
// UTF-8 BOM is dropped, comments are ignored, `data` lines join with LF, a blank line dispatches,
// `id` (without NUL) persists across events, `retry` takes digits only. Lines and events are
// bounded: the parser never holds more than its limits.
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::net {

struct SseEvent {
    std::string type = "message";  // the event field, or "message"
    std::string data;
    std::string id;  // the last event id as of this event: an id field of this or an earlier event
};

struct SseLimits {
    std::size_t max_line_bytes = 8 * 1024 * 1024;
    std::size_t max_event_bytes = 8 * 1024 * 1024;  // an event's data and type
};

// A line or an event over its limit, or a parser fed again after that.
class SseError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class SseParser {
public:
    using EventHandler = std::function<void(SseEvent&&)>;

    explicit SseParser(EventHandler on_event, SseLimits limits = {});

    // Parses `bytes`, calling the handler for each event they complete, in order. Throws SseError
    // when a line or an event is over its limit (after the events before it): the stream is then
    // unusable and the parser refuses any more input. An event not ended by a blank line when the
    // stream ends is not dispatched (the spec discards it).
    void feed(std::string_view bytes);

    const std::string& last_event_id() const { return last_id_; }
    // The last valid retry field: how long to wait before reconnecting.
    std::optional<std::chrono::milliseconds> retry() const { return retry_; }

private:
    void take_line(std::string_view line);
    void take_field(std::string_view field, std::string_view value);
    void dispatch();
    void fail(const std::string& why);

    EventHandler on_event_;
    SseLimits limits_;
    std::string line_;  // the line in progress, when a read ended inside it
    bool at_stream_start_ = true;
    bool after_cr_ = false;  // the last line ended with CR: an LF next is part of that line end
    bool failed_ = false;
    std::string type_;
    std::string data_;
    std::string last_id_;
    std::optional<std::chrono::milliseconds> retry_;
};

}  // namespace mcp::net
