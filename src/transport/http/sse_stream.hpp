#pragma once
// A resumable SSE stream of a 2025-era session: a POST's response stream, or the session's
// standalone (GET) stream. Every event is journaled under a sealed id; a client that lost the
// connection reconnects with Last-Event-ID and gets what it missed, then the rest live.
#include "transport/http/outbox.hpp"

#include <mcp/security/key_ring.hpp>
#include <mcp/store/event_journal.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mcp::detail {

// What a sealed event id says.
struct EventPosition {
    std::string session_id;
    std::string stream_id;
    std::uint64_t seq = 0;
};

std::string seal_event_id(const KeyRing& keys, const EventPosition& position);
// Nothing for an id that is malformed, altered, or sealed by a key this ring lacks.
std::optional<EventPosition> open_event_id(const KeyRing& keys, std::string_view id);

class SseStream {
public:
    SseStream(std::string session_id, std::string stream_id, EventJournal& journal, const KeyRing& keys, long retry_ms);
    ~SseStream();

    const std::string& id() const { return stream_id_; }

    // Sends the priming event (its id lets a client resume from the very start).
    void prime();
    // Journals the message under the next id and writes it to the attached connection, if any.
    void publish(const boost::json::value& message);
    // The last event was published (a POST stream's response): attached connections end.
    void finish();
    bool finished();

    // Makes `outbox` the stream's connection: replays the events after `after_seq` (the whole
    // journal for 0), then streams live. A connection already attached is ended; a stream never
    // goes to two connections. Returns false when the replay has a gap (events were dropped).
    bool attach(const std::shared_ptr<Outbox>& outbox, std::uint64_t after_seq);
    // Makes `outbox` the stream's connection from now on, without replay, after a priming event
    // that marks the current position (a fresh GET of the standalone stream).
    void attach_live(const std::shared_ptr<Outbox>& outbox);
    // Ends the attached connection, if any (session deleted, server stopping).
    void detach_all();
    bool attached();

private:
    std::string event(std::string_view data, std::uint64_t seq) const;

    const std::string session_id_;
    const std::string stream_id_;
    const std::string journal_key_;
    EventJournal& journal_;
    const KeyRing& keys_;
    const long retry_ms_;

    std::mutex mutex_;  // keeps journal order and live order the same
    std::uint64_t next_seq_ = 1;
    bool finished_ = false;
    std::shared_ptr<Outbox> live_;
};

}  // namespace mcp::detail
