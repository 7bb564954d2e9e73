#pragma once
// A 2025-era session served over a transport with resumable streams (Streamable HTTP): the
// session and its streams, the standalone (GET) one and those of recent POST responses. With a
// shared journal, another node's streams of the same session are found through the journal.
#include "sessions/resumable_stream.hpp"
#include "util/bounded_count.hpp"

#include <mcp/sessions/session.hpp>

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace mcp::detail {

class ResumableSession {
public:
    // Makes the standalone stream the session's channel. `waker` is null on a single node.
    ResumableSession(std::shared_ptr<Session> session, EventJournal& journal, const KeyRing& keys, StreamWaker* waker);

    const std::shared_ptr<Session>& session() const { return session_; }
    const std::string& id() const { return session_->id(); }

    // A new POST response stream.
    std::shared_ptr<ResumableStream> open_stream();
    // A POST stream's last event was published: the stream ends, and is kept for a resume among
    // the session's most recent finished ones.
    void finish(ResumableStream& stream);
    // A stream of this session by id ("get" is the standalone one), to resume after the event
    // `after_event`; nullptr when it is gone. With a shared journal, a stream another node opened
    // is found through its journal, or, right after its priming event, taken on trust: its id was
    // sealed by a node of this cluster and nothing was journaled yet.
    std::shared_ptr<ResumableStream> find_stream(std::string_view stream_id, std::string_view after_event);
    // A stream this node already holds, without asking the journal.
    std::shared_ptr<ResumableStream> local_stream(std::string_view stream_id);
    ResumableStream& standalone() { return *standalone_; }
    // Delivers to every stream attached here what was journaled since its last delivery (after
    // the shared store came back: wake-ups sent meanwhile were lost).
    void catch_up_all();
    // Counts a GET connection (a listen or a resume) until the lease is dropped; nothing when
    // `limit` are open already. POST responses are not counted: each is its own request.
    std::optional<BoundedCount::Place> lease_get_connection(std::size_t limit);
    // Ends every stream's connection here; `discard` also drops their journals (DELETE, expiry
    // on the node that removed the session).
    void close(bool discard);
    // Shutdown: nothing more can be asked of the client (waits for its answers fail at once) and
    // the GET stream ends; POST streams finish with their calls.
    void close_standalone();

private:
    std::shared_ptr<ResumableStream> make_stream(std::string stream_id);
    std::shared_ptr<ResumableStream> held(std::string_view stream_id);  // mutex_ held
    // Forgets a stream, and with `discard` its journal (mutex_ held).
    void forget(const std::string& stream_id, bool discard);

    std::shared_ptr<Session> session_;
    EventJournal& journal_;
    const KeyRing& keys_;
    StreamWaker* waker_;
    std::shared_ptr<ResumableStream> standalone_;
    // Shared with the leases: a connection may outlive the session object.
    BoundedCount get_connections_;

    std::mutex mutex_;
    // POST streams by id: those running (a parked call's among them, however many) and the most
    // recent finished ones. Nothing here walks them all, but close().
    std::unordered_map<std::string, std::shared_ptr<ResumableStream>> streams_;
    std::deque<std::string> finished_;  // oldest first
    std::deque<std::string> adopted_;   // opened on another node and resumed here, oldest first
};

}  // namespace mcp::detail
