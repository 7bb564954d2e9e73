#pragma once
// The events of 2025-era SSE streams, kept so a client that lost its connection can resume with
// Last-Event-ID, on this node or, with a shared journal, on another.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

class EventJournal {
public:
    struct Event {
        std::string id;    // assigned by the journal; increases within a stream
        std::string data;  // the JSON-RPC message, serialized; empty marks the end of the stream
    };

    virtual ~EventJournal() = default;
    // Appends an event and returns its id.
    virtual std::string append(std::string_view stream, std::string data) = 0;
    // The stream's retained events after the one with id `after` ("" for all), in order.
    // `complete` is false when some of them were already dropped (the bound): a gap.
    virtual std::vector<Event> after(std::string_view stream, std::string_view after, bool& complete) = 0;
    virtual bool exists(std::string_view stream) = 0;
    // The id of the stream's newest event, "" when it has none.
    virtual std::string last_id(std::string_view stream) = 0;
    virtual void drop(std::string_view stream) = 0;
};

// Keeps at most `max_events` and `max_bytes` per stream (oldest dropped first) and at most
// `max_streams` streams (the least recently written dropped first). Event ids increase across
// the whole journal: a stream dropped and written again never repeats one.
std::unique_ptr<EventJournal> make_memory_event_journal(std::size_t max_events, std::size_t max_bytes,
                                                        std::size_t max_streams);

}  // namespace mcp::detail
