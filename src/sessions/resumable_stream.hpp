#pragma once
// A resumable stream of a 2025-era session: a POST's response stream, or the session's standalone
// (GET) stream. Every event is journaled under a sealed id; a client that lost the connection
// reconnects with Last-Event-ID (to this node or, with a shared journal, another) and gets what it
// missed, then the rest live. With a shared journal, events published on one node reach the
// connection held by another through a wake-up (StreamWaker). The transport frames the events
// (StreamConnection).
#include "store/event_journal.hpp"

#include <mcp/security/key_ring.hpp>

#include <boost/json/value.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mcp::detail {

// What a sealed event id says: the stream, and the journal id of the event ("" before the first).
struct EventPosition {
    std::string session_id;
    std::string stream_id;
    std::string event_id;
};

std::string seal_event_id(const KeyRing& keys, const EventPosition& position);
// Nothing for an id that is malformed, altered, or sealed by a key this ring lacks.
std::optional<EventPosition> open_event_id(const KeyRing& keys, std::string_view id);

// The client connection attached to a stream, as the transport frames it. Thread-safe.
class StreamConnection {
public:
    virtual ~StreamConnection() = default;
    // One event under its sealed id; false when the connection is gone.
    virtual bool event(std::string_view data, std::string_view event_id) = 0;
    // The priming event: an id to resume from before any event arrived.
    virtual void prime(std::string_view event_id) = 0;
    // The stream is over (or taken by another connection): the response ends.
    virtual void finish() = 0;
    virtual bool detached() = 0;
};

// Tells the nodes holding a stream's connection that it has new events (several nodes).
class StreamWaker {
public:
    virtual ~StreamWaker() = default;
    virtual void wake(const std::string& session_id, const std::string& stream_id) = 0;
};

class ResumableStream {
public:
    ResumableStream(std::string session_id, std::string stream_id, EventJournal& journal, const KeyRing& keys,
                    StreamWaker* waker);

    const std::string& id() const { return stream_id_; }
    static std::string journal_key(std::string_view session_id, std::string_view stream_id);

    // The priming event: an id for the current position, so a client can resume from here.
    void prime();
    // Journals the message and delivers it to the attached connection (here or on another node).
    // While a shared journal is away the connection here still gets it; a resume would not.
    void publish(const boost::json::value& message);
    // The same for a message already written as JSON text.
    void publish_text(const std::string& data);
    // The last event was published (a POST stream's response): the connection ends.
    void finish();
    bool finished();

    // Makes `connection` the stream's connection: replays the events after `after_event` ("" for
    // all), then streams live. A connection already attached is ended: one stream, one connection.
    // Throws StoreUnavailable when a shared journal cannot be read (then nothing is attached).
    void attach(const std::shared_ptr<StreamConnection>& connection, const std::string& after_event);
    // Makes `connection` the connection from now on, without replay (a fresh GET).
    void attach_live(const std::shared_ptr<StreamConnection>& connection);
    void detach_all();
    bool attached();
    // Delivers what other nodes published since the last delivery.
    void catch_up();
    // Drops the stream's events from the journal, for good: a call that outlives its session
    // (a step of a cancelled call, a handler its DELETE released) then publishes and finishes
    // into nothing, instead of writing back a stream that nothing would drop again.
    void discard();

private:
    void deliver_new();                                             // mutex_ held
    bool live_here() const { return live_ && !live_->detached(); }  // mutex_ held
    std::string sealed(const std::string& event_id) const;

    const std::string session_id_;
    const std::string stream_id_;
    const std::string journal_key_;
    EventJournal& journal_;
    const KeyRing& keys_;
    StreamWaker* waker_;

    std::mutex mutex_;  // keeps the order of the journal and of the connection the same
    bool finished_ = false;
    bool discarded_ = false;
    std::shared_ptr<StreamConnection> live_;
    std::string last_delivered_;  // journal id of the last event written to `live_`
};

}  // namespace mcp::detail
