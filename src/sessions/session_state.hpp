#pragma once
// The library's side of a Session: its fields, guarded by one mutex, and the operations the core
// and the session service perform on them. include/mcp/sessions/session.hpp is the public view.
#include "sessions/in_flight.hpp"
#include "store/session_records.hpp"

#include <mcp/sessions/session.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace mcp::detail {

class SessionState {
public:
    // `channel` carries messages not tied to a call: stdout on stdio, the GET stream over HTTP.
    static std::shared_ptr<Session> make(std::string id, std::shared_ptr<MessageSink> channel, LogLevel level);
    static SessionState& of(Session& session) { return *session.state_; }
    static const SessionState& of(const Session& session) { return *session.state_; }

    SessionState(std::string id, std::shared_ptr<MessageSink> channel, LogLevel level);

    const std::string& id() const { return id_; }
    bool initialized() const;
    std::shared_ptr<const ClientState> client() const;
    LogLevel log_level() const { return log_level_.load(std::memory_order_relaxed); }
    std::string owner() const;
    bool owned_by(std::string_view subject) const;
    bool subscribed(std::string_view uri) const;
    std::size_t subscription_count() const;

    // initialize succeeded: what the client declared, and who it is.
    void initialize(std::shared_ptr<const ClientState> client, std::string owner);
    // A change the core makes after initialize (log level, subscriptions), to this object only.
    void apply(const SessionChange& change);
    // The application's watch of a subscribed URI (Server::watch_resource_subscriptions), held
    // until the URI is unsubscribed or the session ends. False when one is held already.
    bool watching(std::string_view uri) const;
    bool keep_watch(std::string uri, std::shared_ptr<void> watch);
    std::shared_ptr<void> drop_watch(std::string_view uri);
    // What a shared store keeps of the session.
    SessionRecord record() const;

    // Sessions that several nodes serve: the revision of the shared record this object last
    // loaded or wrote (-1: never), so a record read before a change was written does not undo it.
    bool shared() const { return shared_.load(); }
    void share(std::int64_t revision);
    // Loads a stored record, unless this object holds that revision or a later one.
    void load(const SessionRecord& record);
    // After the store applied `change` and answered `revision`: applies it again (a reload may have
    // run in between) and takes the revision when it follows the one held. False when another
    // node's change came first and is not here yet: a reload must bring the whole state.
    bool applied(const SessionChange& change, std::int64_t revision);

    bool notify(boost::json::value message);
    void set_channel(std::shared_ptr<MessageSink> channel);
    void close();
    bool closed() const;
    // Tripped by close(): handlers waiting for this client's answers give up at once.
    std::stop_token closed_token() const { return closed_source_.get_token(); }

    // Held from untrack until the call's answer is written: the id is free again for the client
    // (which may reuse it the moment it reads the answer), yet wait_idle still waits for it.
    class [[nodiscard]] Answering {
    public:
        explicit Answering(SessionState* state) : state_(state) {}
        Answering(Answering&& other) noexcept : state_(std::exchange(other.state_, nullptr)) {}
        Answering& operator=(Answering&&) = delete;
        ~Answering();

    private:
        SessionState* state_;
    };

    // False when a call with the same id is already in flight.
    bool track(const std::shared_ptr<InFlightCall>& call);
    Answering untrack(const InFlightCall& call);
    // notifications/cancelled: stops the call and suppresses its response. False when no such
    // call runs here.
    bool cancel(const boost::json::value& request_id);
    void cancel_all();
    // Until every tracked call has answered.
    void wait_idle();

    // The client's last roots/list result, kept until notifications/roots/list_changed.
    std::optional<boost::json::value> cached_roots() const;
    void cache_roots(boost::json::value result);
    void forget_roots();

private:
    void apply_locked(const SessionChange& change);

    const std::string id_;
    std::atomic<LogLevel> log_level_;
    std::atomic<bool> shared_{false};
    std::stop_source closed_source_;

    mutable std::mutex mutex_;
    std::string owner_;
    std::shared_ptr<MessageSink> channel_;
    std::shared_ptr<const ClientState> client_;
    std::set<std::string, std::less<>> subscriptions_;
    std::map<std::string, std::shared_ptr<void>, std::less<>> watches_;
    std::unordered_map<std::string, std::weak_ptr<InFlightCall>> in_flight_;
    std::size_t answering_ = 0;
    std::condition_variable idle_;
    bool closed_ = false;
    std::optional<boost::json::value> roots_;
    std::int64_t revision_ = -1;
};

}  // namespace mcp::detail
