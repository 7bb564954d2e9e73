#pragma once
// The HTTP side of 2025-era sessions: each core Session with its resumable SSE streams, kept in
// step with the SessionStore. With a shared store (several nodes), a session created on one node
// is adopted by the others when they first serve it, and the nodes signal each other: new events
// on a stream ("wake"), a session deleted ("deleted").
#include "transport/http/sse_stream.hpp"

#include "server/cluster_sessions.hpp"
#include "store/backend.hpp"

#include <mcp/server/server.hpp>
#include <mcp/store/event_journal.hpp>
#include <mcp/store/session_store.hpp>
#include <mcp/transport/http.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace mcp::detail {

class HttpSession {
public:
    HttpSession(std::shared_ptr<Session> session, EventJournal& journal, const KeyRing& keys, const HttpOptions& options,
                StreamWaker* waker);

    const std::shared_ptr<Session>& session() const { return session_; }
    const std::string& id() const { return session_->id(); }

    // A new POST response stream.
    std::shared_ptr<SseStream> open_stream();
    // A stream of this session by id ("get" is the standalone one), to resume after the event
    // `after_event`; nullptr when it is gone. With a shared journal, a stream another node opened
    // is found through its journal, or, right after its priming event, taken on trust: its id was
    // sealed by a node of this cluster and nothing was journaled yet.
    std::shared_ptr<SseStream> find_stream(std::string_view stream_id, std::string_view after_event);
    // A stream this node already holds, without asking the journal.
    std::shared_ptr<SseStream> local_stream(std::string_view stream_id);
    SseStream& standalone() { return *standalone_; }
    // Delivers to every stream attached here what was journaled since its last delivery (after
    // the shared store came back: wake-ups sent meanwhile were lost).
    void catch_up_all();
    // Streams with a connection attached now.
    std::size_t attached_streams();
    // Ends every stream's connection here; `discard` also drops their journals (DELETE, expiry
    // on the node that removed the session).
    void close(bool discard);
    // Shutdown: nothing more can be asked of the client (waits for its answers fail at once) and
    // the GET stream ends; POST streams finish with their calls.
    void close_standalone() {
        session_->close();
        standalone_->detach_all();
    }

private:
    std::shared_ptr<SseStream> make_stream(std::string stream_id);

    std::shared_ptr<Session> session_;
    EventJournal& journal_;
    const KeyRing& keys_;
    const HttpOptions& options_;
    StreamWaker* waker_;
    std::shared_ptr<SseStream> standalone_;

    std::mutex mutex_;
    std::uint64_t next_stream_ = 1;
    // Recent POST streams, oldest first; finished ones beyond the limit are forgotten.
    std::map<std::uint64_t, std::shared_ptr<SseStream>> streams_;
};

class HttpSessions final : private ClusterSessions {
public:
    HttpSessions(Server& server, const HttpOptions& options, Backend& backend, EventJournal& journal);
    ~HttpSessions();
    HttpSessions(const HttpSessions&) = delete;
    HttpSessions& operator=(const HttpSessions&) = delete;

    // A new session for an initialize request; stored only once initialize succeeded.
    std::shared_ptr<HttpSession> create();
    // False when the store is full. The store calls here and below throw StoreUnavailable when a
    // shared store cannot be reached.
    bool admit(const std::shared_ptr<HttpSession>& session);
    bool full() const;
    // nullptr for unknown, deleted or expired sessions.
    std::shared_ptr<HttpSession> find(std::string_view id) { return lookup(id, true); }
    // DELETE: ends the session; false when it did not exist.
    bool remove(std::string_view id);
    // Ends sessions idle past their time to live.
    void expire();
    // Shutdown: ends every session's GET stream; calls in flight keep their response streams.
    void close_standalone_streams();

private:
    class Waker;
    std::shared_ptr<Session> session(std::string_view id) override;
    bool listening_here(std::string_view id) override;

    std::shared_ptr<HttpSession> wrap(std::shared_ptr<Session> session);
    // `touch`: a client's request, which restarts the session's idle timer.
    std::shared_ptr<HttpSession> lookup(std::string_view id, bool touch);
    // Ends this node's part of a session: its connections close, its calls are cancelled.
    void end_local(std::string_view id, bool discard);

    Server& server_;
    const HttpOptions& options_;
    EventJournal& journal_;
    Cluster* cluster_;
    std::unique_ptr<Waker> waker_;
    std::unique_ptr<SessionStore> store_;
    std::vector<std::uint64_t> subscriptions_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<HttpSession>, std::less<>> live_;
};

}  // namespace mcp::detail
