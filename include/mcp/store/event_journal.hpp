#pragma once
// The events of 2025-era SSE streams, kept so a client that lost its connection can resume with
// Last-Event-ID (on this node or, with a shared journal, on another).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

class EventJournal {
public:
    struct Event {
        std::uint64_t seq;
        std::string data;  // the JSON-RPC message, serialized
    };

    virtual ~EventJournal() = default;
    // Appends an event to a stream; sequence numbers of one stream increase.
    virtual void append(std::string_view stream, std::uint64_t seq, std::string data) = 0;
    // The stream's retained events after `seq`, in order. `complete` is false when events after
    // `seq` were already dropped (the bound), so the replay has a gap.
    virtual std::vector<Event> after(std::string_view stream, std::uint64_t seq, bool& complete) = 0;
    virtual void drop(std::string_view stream) = 0;
};

// Keeps at most `max_events` and `max_bytes` per stream (oldest dropped first) and at most
// `max_streams` streams (the least recently written dropped first).
std::unique_ptr<EventJournal> make_memory_event_journal(std::size_t max_events, std::size_t max_bytes,
                                                        std::size_t max_streams);

}  // namespace mcp
