#pragma once
// The owner of 2025-era session state on this node: every session it serves, their records in a
// shared store (with several nodes), the journals of their resumable streams, the mailbox where
// handlers wait for clients' answers, and the signals between nodes about sessions (a change, a
// deletion, new events on a stream, a cancellation). Built by the core from the backend.
//
// Transports create, admit, find, remove and expire sessions and attach connections to their
// streams. The core records changes, finds subscribers and listeners, routes cancellations and
// delivers answers. With a shared store every call may throw StoreUnavailable.
#include "sessions/resumable_session.hpp"
#include "sessions/session_metrics.hpp"
#include "store/backend.hpp"
#include "util/fair_share.hpp"
#include "util/metrics.hpp"

#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

class SessionService {
public:
    struct Settings {
        // Sessions this node holds; at the bound, a session of a client above its share makes room
        // (docs/adr/0024-fair-limits.md), else admit() refuses.
        std::size_t max_sessions = 10'000;
        // Sessions of one client, on this node, and with a shared store on all of them.
        std::size_t max_sessions_per_client = 1'000;
        std::chrono::milliseconds idle_timeout{30 * 60'000};
        // A session no request touched since initialize ends this long after it was made.
        std::chrono::milliseconds half_open_timeout{30'000};
        std::size_t journal_events_per_stream = 1'000;
        std::size_t journal_bytes_per_stream = 4 * 1024 * 1024;
        // Streams journaled at once on one node (the least recently written go first): room for a
        // few per session and for every parked call's.
        std::size_t journal_streams = 40'000 + 100'000;
        LogLevel initial_level = LogLevel::info;  // until the client calls logging/setLevel
        std::function<const KeyRing&()> keys;     // seals event ids; asked when the first stream opens
        // Runs what must not hold up the thread that asked for it: ending a session, which closes
        // its streams and drops its parked calls (thousands, maybe). Inline when unset.
        std::function<void(std::function<void()>)> in_background;
    };

    SessionService(std::shared_ptr<Backend> backend, Settings settings);
    ~SessionService();
    SessionService(const SessionService&) = delete;
    SessionService& operator=(const SessionService&) = delete;

    // ---- Connections that are one session each (stdio, in-process): known to this node only.
    std::shared_ptr<Session> open(std::shared_ptr<MessageSink> channel, std::string id);

    // ---- Sessions with resumable streams, kept between requests (Streamable HTTP).
    // A new session for an initialize request, not stored yet.
    std::shared_ptr<ResumableSession> create();
    enum class Admission : unsigned char { admitted, client_limit, full };
    // Stores it once initialize succeeded, counted against `client` (util/client_key.hpp): refused
    // when the client holds max_sessions_per_client already, or when this node is at max_sessions
    // and no client holds more than its share (else the least recently used session of the one
    // holding the most is ended to make room). Until a request for it comes, it is half-open.
    Admission admit(const std::shared_ptr<ResumableSession>& session, const std::string& client);
    // A client's request for a session: restarts its idle timer, and the session is no longer
    // half-open. Another node's session is adopted here. nullptr when unknown, deleted, expired or
    // not `subject`'s.
    std::shared_ptr<ResumableSession> find(std::string_view id, std::string_view subject);
    // find() without asking the store: the session when this node holds it and, with a shared
    // store, trusts its record (read less than kTrustPeriod ago); nullptr means "ask find()".
    std::shared_ptr<ResumableSession> find_trusted(std::string_view id, std::string_view subject);
    // With a shared store, how long a node serves a session it read from the store without reading
    // it again. A DELETE, a level or subscription change is acknowledged only once that long has
    // passed since the store took it, so that no node serves the state from before it afterwards
    // (docs/adr/0027-redis-cluster.md, decision 7): record() waits by itself; after remove(), the
    // caller waits before it answers.
    static constexpr std::chrono::milliseconds kTrustPeriod{50};
    // DELETE; false when there is no such session of `subject`'s.
    bool remove(std::string_view id, std::string_view subject);
    // Ends the sessions idle past their time to live, and those half-open past theirs.
    void expire();
    // How often expire() should run to keep those times.
    std::chrono::milliseconds expiry_period() const;
    // Shutdown: every session's GET stream ends; calls in flight keep their response streams.
    void close_standalone_streams();
    // Sessions stored on this node.
    std::size_t size();
    // Whether the store is shared by several nodes (its calls wait on the network).
    bool shared() const { return records_ != nullptr; }
    // Whether the store answers now (readiness).
    bool store_reachable() const { return backend_->reachable(); }

    // ---- For the core.
    // initialize succeeded: what the client declared and who it is; the session now hears of changes.
    void initialized(const std::shared_ptr<Session>& session, std::shared_ptr<const ClientState> client,
                     std::string owner);
    // Applies a change and, for a shared session, writes it through before it is acknowledged.
    void record(Session& session, const SessionChange& change);
    // Every session subscribed to `uri`, on any node (adopted here to reach it through its
    // stream's journal); this node's only while a shared store is away.
    std::vector<std::shared_ptr<Session>> subscribers(std::string_view uri);
    // The sessions this node tells of list changes: with several nodes, each node tells those
    // whose GET stream it holds, so a change made on every node reaches each client once.
    std::vector<std::shared_ptr<Session>> listeners();
    // notifications/cancelled: the call stops here, or on the node that runs it.
    void cancel(Session& session, const boost::json::value& request_id);
    // A client's answer to a server-to-client request; false when nobody waits for it.
    bool deliver(std::string_view key, boost::json::value answer) {
        return backend_->mailbox().deliver(key, std::move(answer));
    }
    Mailbox& mailbox() { return backend_->mailbox(); }
    std::shared_ptr<Session> local(std::string_view id);
    // Entries in the table of sessions this node serves, ended ones not yet swept included.
    std::size_t local_entries();

private:
    class Waker;
    struct Stored {
        std::shared_ptr<ResumableSession> session;
        std::chrono::steady_clock::time_point last_used;
        std::chrono::steady_clock::time_point held_since;  // mcp.server.session.duration starts here
        std::list<std::string>::iterator idle_position;    // in idle_order_
        FairShare::Hold hold;                              // its place among the node's sessions
        // Not yet touched by a request after initialize: its place in half_open_ (one node; with a
        // shared store, its record expires by itself).
        std::optional<std::list<std::string>::iterator> half_open_position;
        // With a shared store: until when its state, read from the store, is served without reading
        // it again, unless the connection to the store was remade since (trust_epoch_).
        std::chrono::steady_clock::time_point trusted_until{};
        std::uint64_t trusted_epoch = 0;
    };

    std::shared_ptr<ResumableSession> lookup(std::string_view id, bool touch);
    std::shared_ptr<ResumableSession> lookup_memory(std::string_view id, bool touch);
    // With a shared store: the session as its record says, read again unless read lately (and
    // always when `reload`).
    std::shared_ptr<ResumableSession> lookup_shared(std::string_view id, bool touch, bool reload = false);
    // The session whose record this node read from the store at or after `asked - kTrustPeriod`,
    // since the store's connections were last remade; nullptr otherwise.
    std::shared_ptr<ResumableSession> trusted(std::string_view id, bool touch,
                                              std::chrono::steady_clock::time_point asked);
    // Waits until no node trusts a record read before a change this node just stored.
    static void outlast_trust();
    std::shared_ptr<ResumableSession> wrap(std::shared_ptr<Session> session);
    std::shared_ptr<ResumableSession> stored(std::string_view id);
    void track_local(const std::shared_ptr<Session>& session);
    // Live sessions of the local table; ended ones are swept out.
    std::vector<std::shared_ptr<Session>> local_sessions();
    // Ends this node's part of a session: its connections close, its calls are cancelled. False
    // when this node did not hold it.
    bool end_local(std::string_view id, bool discard, SessionEnd how);
    // Sessions idle past their time to live (one node), oldest first; taken out of the table
    // without looking at the others.
    std::vector<std::shared_ptr<ResumableSession>> take_expired();  // mutex_ held
    void store_locked(std::string id, std::shared_ptr<ResumableSession> session, FairShare::Hold hold);
    // Ends a session to make room for another client's (it held more than its share), everywhere.
    void evict(const std::string& id);
    // Half-open sessions past their time (one node; mutex_ held).
    std::vector<std::shared_ptr<ResumableSession>> take_half_open();
    // Out of the table; null when it was not there (mutex_ held).
    std::shared_ptr<ResumableSession> take_locked(std::string_view id, SessionEnd how);
    // Ends sessions taken out of the table, in the background.
    void end_later(std::vector<std::shared_ptr<ResumableSession>> sessions, bool discard);
    void join_bus();

    const std::shared_ptr<Backend> backend_;
    const Settings settings_;
    NodeBus* const bus_;
    const std::unique_ptr<SessionRecords> records_;  // null on one node
    const std::unique_ptr<EventJournal> journal_;
    std::unique_ptr<Waker> waker_;
    std::vector<std::uint64_t> subscriptions_;

    std::mutex mutex_;
    std::map<std::string, Stored, std::less<>> stored_;
    std::atomic<std::uint64_t> trust_epoch_{0};  // bumped when the store's connections are remade
    std::list<std::string> idle_order_;          // least recently used first
    std::list<std::string> half_open_;           // oldest first (one node)
    // The node's sessions by client, within max_sessions and max_sessions_per_client. Taken
    // outside mutex_; its holds are given back under it (a Stored entry goes).
    FairShare share_;

    // Every initialized session this node serves, for changes not tied to a call.
    std::mutex local_mutex_;
    std::unordered_map<std::string, std::weak_ptr<Session>> local_;
    static constexpr std::size_t kFirstSweep = 1024;
    std::size_t sweep_at_ = kFirstSweep;
    metrics::CallbackHandle limit_gauge_;  // --max-sessions, for alerts on how full the node is
    metrics::CallbackHandle open_gauge_;   // last: it reads stored_, so it goes first
};

}  // namespace mcp::detail
