#include "sessions/session_service.hpp"

#include "sessions/session_metrics.hpp"
#include "sessions/session_state.hpp"
#include "util/log.hpp"
#include "util/random.hpp"

#include <mcp/protocol/errors.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <thread>
#include <variant>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;

JournalLimits journal_limits(const SessionService::Settings& s) {
    return {s.journal_events_per_stream, s.journal_bytes_per_stream, s.journal_streams, s.idle_timeout};
}

// Initialized and not gone: a session that can be told of changes.
bool serves(const Session& session) { return session.initialized() && !session.closed(); }

// A session that goes away closes its connections here and cancels what it still had running:
// nobody is left to answer.
void end(ResumableSession& session, bool discard) {
    session.close(discard);
    session.session()->cancel_all();
}

}  // namespace

// Tells the other nodes that a stream has new events in the shared journal.
class SessionService::Waker final : public StreamWaker {
public:
    explicit Waker(NodeBus& bus) : bus_(bus) {}
    void wake(const std::string& session_id, const std::string& stream_id) override {
        try {
            bus_.publish("wake", session_id + '/' + stream_id);
        } catch (const StoreUnavailable&) {
            // The events are journaled; the node holding the connection catches up when Redis is back.
        }
    }

private:
    NodeBus& bus_;
};

SessionService::SessionService(std::shared_ptr<Backend> backend, Settings settings)
    : backend_(std::move(backend)),
      settings_(std::move(settings)),
      bus_(backend_->bus()),
      // A session is never kept longer half-open than it would be idle.
      records_(backend_->make_session_records(settings_.idle_timeout,
                                              std::min(settings_.half_open_timeout, settings_.idle_timeout))),
      journal_(backend_->make_journal(journal_limits(settings_))),
      share_(Bound::sessions) {
    if (bus_ != nullptr) join_bus();
    open_gauge_ = metrics::registry()
                      .family("mcp_sessions_open", "2025-era HTTP sessions this node holds", metrics::Type::gauge)
                      .callback({}, [this] { return static_cast<double>(size()); });
    limit_gauge_ = metrics::registry()
                       .family("mcp_sessions_limit", "2025-era HTTP sessions this node holds at most (--max-sessions)",
                               metrics::Type::gauge)
                       .callback({}, [max = settings_.max_sessions] { return static_cast<double>(max); });
}

SessionService::~SessionService() {
    for (const auto id : subscriptions_) bus_->unsubscribe(id);
}

void SessionService::join_bus() {
    waker_ = std::make_unique<Waker>(*bus_);
    // Another node changed a session this node holds (its log level...): reload it.
    subscriptions_.push_back(bus_->subscribe("changed", [this](std::string_view id) {
        if (stored(id)) lookup_shared(id, false, true);
    }));
    // Another node journaled events on a stream whose connection is here.
    subscriptions_.push_back(bus_->subscribe("wake", [this](std::string_view key) {
        const auto cut = key.find('/');
        if (cut == std::string_view::npos) return;
        auto session = stored(key.substr(0, cut));
        if (!session) return;
        if (auto stream = session->local_stream(key.substr(cut + 1))) stream->catch_up();
    }));
    // DELETE on another node: this node's connections of the session end, its calls stop.
    subscriptions_.push_back(
        bus_->subscribe("deleted", [this](std::string_view id) { end_local(id, false, SessionEnd::closed); }));
    // A client cancelled, on another node, a call running here: "<node>\n<session>\n<request id>".
    subscriptions_.push_back(bus_->subscribe("cancel", [this](std::string_view signal) {
        const auto first = signal.find('\n');
        if (first == std::string_view::npos || signal.substr(0, first) == bus_->node_id()) return;
        const auto rest = signal.substr(first + 1);
        const auto cut = rest.find('\n');
        if (cut == std::string_view::npos) return;
        boost::system::error_code ec;
        const auto request_id = boost::json::parse(rest.substr(cut + 1), ec);
        if (ec) return;
        if (auto session = local(rest.substr(0, cut))) SessionState::of(*session).cancel(request_id);
    }));
    // Wake-ups sent while Redis was away were lost: no record read before is trusted any more, and
    // every connection here catches up.
    subscriptions_.push_back(bus_->on_reconnect([this] {
        ++trust_epoch_;
        std::vector<std::shared_ptr<ResumableSession>> all;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [id, entry] : stored_) all.push_back(entry.session);
        }
        for (const auto& session : all) session->catch_up_all();
    }));
}

std::shared_ptr<Session> SessionService::open(std::shared_ptr<MessageSink> channel, std::string id) {
    // Connections without an id of their own get a random one: it binds the ids of requests sent
    // to that client.
    if (id.empty()) id = random_token();
    return SessionState::make(std::move(id), std::move(channel), settings_.initial_level);
}

std::shared_ptr<ResumableSession> SessionService::wrap(std::shared_ptr<Session> session) {
    return std::make_shared<ResumableSession>(std::move(session), *journal_, settings_.keys(), waker_.get());
}

std::shared_ptr<ResumableSession> SessionService::create() {
    // 144 random bits, visible ASCII, as the spec requires of session ids.
    return wrap(SessionState::make(random_token(), nullptr, settings_.initial_level));
}

std::size_t SessionService::size() {
    std::lock_guard lock(mutex_);
    return stored_.size();
}

SessionService::Admission SessionService::admit(const std::shared_ptr<ResumableSession>& session,
                                                const std::string& client) {
    auto& state = SessionState::of(*session->session());
    const std::string id = session->id();
    if (records_) {
        // The client's count across the nodes lives with the records.
        auto record = state.record();
        record.charged_to = client;
        switch (records_->insert(record, settings_.max_sessions_per_client)) {
            case SessionRecords::Insert::inserted: break;
            case SessionRecords::Insert::client_full:
                report_refusal(Bound::sessions, Limit::client, client);
                return Admission::client_limit;
            case SessionRecords::Insert::id_taken: return Admission::full;  // cannot happen with random ids
        }
        state.share(0);
    } else {
        // Sessions past their time make room before any client's live one does.
        std::vector<std::shared_ptr<ResumableSession>> expired;
        {
            std::lock_guard lock(mutex_);
            if (stored_.size() >= settings_.max_sessions) {
                expired = take_expired();
                for (auto& half_open : take_half_open()) expired.push_back(std::move(half_open));
            }
        }
        if (metrics::enabled()) session_metrics().expired.add(expired.size());
        end_later(std::move(expired), true);
    }
    auto verdict =
        share_.take(client, {settings_.max_sessions, settings_.max_sessions_per_client}, [this, id] { evict(id); });
    if (const auto* refused = std::get_if<FairShare::Refusal>(&verdict)) {
        if (records_) {
            try {
                records_->remove(id);
            } catch (const StoreUnavailable&) {
                // It was never handed out: its half-open time ends it.
            }
        }
        return *refused == FairShare::Refusal::client_limit ? Admission::client_limit : Admission::full;
    }
    {
        std::lock_guard lock(mutex_);
        store_locked(id, session, std::move(std::get<FairShare::Hold>(verdict)));
        if (!records_) stored_.find(id)->second.half_open_position = half_open_.insert(half_open_.end(), id);
    }
    if (metrics::enabled()) session_metrics().created.add();
    return Admission::admitted;
}

void SessionService::evict(const std::string& id) {
    if (records_) {
        try {
            if (records_->remove(id)) bus_->publish("deleted", id);
        } catch (const StoreUnavailable& e) {
            log().warn("a session ended to make room for another client's is left to expire in the store: {}",
                       e.what());
        }
    }
    end_local(id, true, SessionEnd::evicted);
}

std::shared_ptr<ResumableSession> SessionService::find(std::string_view id, std::string_view subject) {
    auto session = lookup(id, true);
    // A session belongs to the principal that initialized it; to anyone else it does not exist.
    return session && SessionState::of(*session->session()).owned_by(subject) ? session : nullptr;
}

std::shared_ptr<ResumableSession> SessionService::lookup(std::string_view id, bool touch) {
    return records_ ? lookup_shared(id, touch) : lookup_memory(id, touch);
}

std::shared_ptr<ResumableSession> SessionService::lookup_memory(std::string_view id, bool touch) {
    std::shared_ptr<ResumableSession> expired;
    {
        std::lock_guard lock(mutex_);
        auto it = stored_.find(id);
        if (it == stored_.end()) return nullptr;
        const auto now = Clock::now();
        if (now - it->second.last_used <= settings_.idle_timeout) {
            if (touch) {
                it->second.last_used = now;
                idle_order_.splice(idle_order_.end(), idle_order_, it->second.idle_position);
                it->second.hold.touch();
                if (auto& half_open = it->second.half_open_position) {
                    half_open_.erase(*half_open);
                    half_open.reset();
                }
            }
            return it->second.session;
        }
        expired = take_locked(id, SessionEnd::timed_out);
    }
    end_later({std::move(expired)}, true);
    if (metrics::enabled()) session_metrics().expired.add();
    return nullptr;
}

std::shared_ptr<ResumableSession> SessionService::find_trusted(std::string_view id, std::string_view subject) {
    auto session = records_ ? trusted(id, true, Clock::now()) : lookup_memory(id, true);
    return session && SessionState::of(*session->session()).owned_by(subject) ? session : nullptr;
}

std::shared_ptr<ResumableSession> SessionService::trusted(std::string_view id, bool touch, Clock::time_point asked) {
    std::lock_guard lock(mutex_);
    auto it = stored_.find(id);
    if (it == stored_.end() || it->second.trusted_epoch != trust_epoch_.load() || asked >= it->second.trusted_until)
        return nullptr;
    if (touch) it->second.hold.touch();
    return it->second.session;
}

std::shared_ptr<ResumableSession> SessionService::lookup_shared(std::string_view id, bool touch, bool reload) {
    const auto asked = Clock::now();
    const auto epoch = trust_epoch_.load();
    if (!reload) {
        if (auto session = trusted(id, touch, asked)) return session;
    }
    auto record = records_->load(id, touch);
    if (!record) {
        end_local(id, false, SessionEnd::closed);  // expired or deleted by another node
        return nullptr;
    }
    std::shared_ptr<ResumableSession> session;
    bool adopted = false;
    {
        std::lock_guard lock(mutex_);
        auto it = stored_.find(id);
        if (it != stored_.end()) {
            session = it->second.session;
            if (touch) it->second.hold.touch();
        } else {
            // A session another node created, first served here: it exists, so it is counted
            // whatever the bounds, and may make room for others like any session here.
            session = wrap(SessionState::make(std::string(id), nullptr, settings_.initial_level));
            SessionState::of(*session->session()).share(-1);
            store_locked(std::string(id), session,
                         share_.hold_anyway(record->charged_to, [this, key = std::string(id)] { evict(key); }));
            adopted = true;
            it = stored_.find(id);
        }
        SessionState::of(*session->session()).load(*record);
        // Trusted from when it was asked for: what was stored before that is in it.
        if (it != stored_.end()) {
            it->second.trusted_until = asked + kTrustPeriod;
            it->second.trusted_epoch = epoch;
        }
    }
    if (adopted) track_local(session->session());
    return session;
}

std::shared_ptr<ResumableSession> SessionService::stored(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = stored_.find(id);
    return it == stored_.end() ? nullptr : it->second.session;
}

bool SessionService::remove(std::string_view id, std::string_view subject) {
    if (!find(id, subject)) return false;
    if (!records_) return end_local(id, true, SessionEnd::closed);
    if (!records_->remove(id)) return false;
    try {
        bus_->publish("deleted", id);
    } catch (const StoreUnavailable&) {
        // The other nodes find the record gone on their next request for it.
    }
    end_local(id, true, SessionEnd::closed);
    return true;
}

void SessionService::outlast_trust() { std::this_thread::sleep_for(kTrustPeriod); }

bool SessionService::end_local(std::string_view id, bool discard, SessionEnd how) {
    std::shared_ptr<ResumableSession> session;
    {
        std::lock_guard lock(mutex_);
        session = take_locked(id, how);
    }
    if (!session) return false;
    end_later({std::move(session)}, discard);
    return true;
}

void SessionService::store_locked(std::string id, std::shared_ptr<ResumableSession> session, FairShare::Hold hold) {
    idle_order_.push_back(id);
    const auto now = Clock::now();
    stored_[std::move(id)] = Stored{std::move(session), now, now, std::prev(idle_order_.end()), std::move(hold), {}};
}

std::shared_ptr<ResumableSession> SessionService::take_locked(std::string_view id, SessionEnd how) {
    auto it = stored_.find(id);
    if (it == stored_.end()) return nullptr;
    auto session = std::move(it->second.session);
    if (metrics::enabled()) {
        const auto client = SessionState::of(*session->session()).client();
        observe_session_end(how, client ? std::string_view(client->protocol_version) : std::string_view(),
                            Clock::now() - it->second.held_since);
    }
    idle_order_.erase(it->second.idle_position);
    if (const auto& half_open = it->second.half_open_position) half_open_.erase(*half_open);
    stored_.erase(it);  // its hold is given back
    return session;
}

std::vector<std::shared_ptr<ResumableSession>> SessionService::take_expired() {
    const auto now = Clock::now();
    std::vector<std::shared_ptr<ResumableSession>> expired;
    while (!idle_order_.empty()) {
        auto it = stored_.find(idle_order_.front());
        if (now - it->second.last_used <= settings_.idle_timeout) break;  // the others are younger
        expired.push_back(take_locked(idle_order_.front(), SessionEnd::timed_out));
    }
    return expired;
}

std::vector<std::shared_ptr<ResumableSession>> SessionService::take_half_open() {
    const auto now = Clock::now();
    std::vector<std::shared_ptr<ResumableSession>> ended;
    while (!half_open_.empty()) {
        // Untouched since they were stored, in that order: the first still young ends the walk.
        if (now - stored_.find(half_open_.front())->second.last_used <= settings_.half_open_timeout) break;
        ended.push_back(take_locked(half_open_.front(), SessionEnd::timed_out));
    }
    return ended;
}

void SessionService::end_later(std::vector<std::shared_ptr<ResumableSession>> sessions, bool discard) {
    if (sessions.empty()) return;
    auto work = [sessions = std::move(sessions), discard] {
        for (const auto& session : sessions) end(*session, discard);
    };
    if (settings_.in_background)
        settings_.in_background(std::move(work));
    else
        work();
}

std::chrono::milliseconds SessionService::expiry_period() const {
    return std::clamp(std::min(settings_.idle_timeout, settings_.half_open_timeout) / 4, std::chrono::milliseconds(100),
                      std::chrono::milliseconds(60'000));
}

void SessionService::expire() {
    if (!records_) {
        std::vector<std::shared_ptr<ResumableSession>> expired;
        {
            std::lock_guard lock(mutex_);
            expired = take_expired();
            for (auto& half_open : take_half_open()) expired.push_back(std::move(half_open));
        }
        if (metrics::enabled()) session_metrics().expired.add(expired.size());
        end_later(std::move(expired), true);
        return;
    }
    std::vector<std::string> ids;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, entry] : stored_) ids.push_back(id);
    }
    const auto exist = records_->exist(ids);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (!exist[i] && end_local(ids[i], true, SessionEnd::timed_out) && metrics::enabled())
            session_metrics().expired.add();
    }
}

void SessionService::close_standalone_streams() {
    std::vector<std::shared_ptr<ResumableSession>> all;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, entry] : stored_) all.push_back(entry.session);
    }
    for (const auto& session : all) session->close_standalone();
}

void SessionService::track_local(const std::shared_ptr<Session>& session) {
    std::lock_guard lock(local_mutex_);
    local_[session->id()] = session;
    // Ended sessions leave expired entries behind. Sweeping them whenever the table has doubled
    // since the last sweep keeps it within twice the live sessions, at a constant amortized cost:
    // a client that creates and deletes sessions in a loop must not grow it without end.
    if (local_.size() >= sweep_at_) {
        std::erase_if(local_, [](const auto& entry) { return entry.second.expired(); });
        sweep_at_ = std::max(kFirstSweep, 2 * local_.size());
    }
}

std::vector<std::shared_ptr<Session>> SessionService::local_sessions() {
    std::vector<std::shared_ptr<Session>> out;
    std::lock_guard lock(local_mutex_);
    std::erase_if(local_, [](const auto& entry) { return entry.second.expired(); });
    out.reserve(local_.size());
    for (const auto& [id, weak] : local_) {
        if (auto session = weak.lock()) out.push_back(std::move(session));
    }
    return out;
}

void SessionService::initialized(const std::shared_ptr<Session>& session, std::shared_ptr<const ClientState> client,
                                 std::string owner) {
    SessionState::of(*session).initialize(std::move(client), std::move(owner));
    track_local(session);
}

void SessionService::record(Session& session, const SessionChange& change) {
    auto& state = SessionState::of(session);
    if (!records_ || !state.shared()) {
        state.apply(change);
        return;
    }
    // The store first: a change it refuses (503) is not made here either.
    const auto revision = records_->apply(session.id(), change);
    if (revision < 0) return;  // deleted meanwhile: the next request finds it gone
    if (!state.applied(change, revision)) {
        // Another node's change came first and is not here yet: reload the whole state.
        try {
            if (stored(session.id())) lookup_shared(session.id(), false, true);
        } catch (const StoreUnavailable&) {
            // Stored all the same; the next request's reload catches up.
        }
    }
    bus_->publish("changed", session.id());
    outlast_trust();
}

std::vector<std::shared_ptr<Session>> SessionService::subscribers(std::string_view uri) {
    std::vector<std::shared_ptr<Session>> out;
    bool from_store = false;
    if (records_) {
        // The store knows every subscribed session, on any node; each is told once, through its
        // standalone stream's shared journal.
        try {
            for (const auto& id : records_->subscribers(uri)) {
                auto session = lookup_shared(id, false);
                if (session && serves(*session->session())) out.push_back(session->session());
            }
            from_store = true;
        } catch (const StoreUnavailable& e) {
            log().warn("resource update sent to this node's sessions only: {}", e.what());
            out.clear();
        }
    }
    for (auto& session : local_sessions()) {
        if (from_store && SessionState::of(*session).shared()) continue;  // found through the store
        if (serves(*session) && session->subscribed(uri)) out.push_back(std::move(session));
    }
    return out;
}

std::vector<std::shared_ptr<Session>> SessionService::listeners() {
    std::vector<std::shared_ptr<Session>> out;
    for (auto& session : local_sessions()) {
        if (!serves(*session)) continue;
        if (bus_ != nullptr && SessionState::of(*session).shared()) {
            auto resumable = stored(session->id());
            if (!resumable || !resumable->standalone().attached()) continue;
        }
        out.push_back(std::move(session));
    }
    return out;
}

void SessionService::cancel(Session& session, const boost::json::value& request_id) {
    if (SessionState::of(session).cancel(request_id) || bus_ == nullptr) return;
    try {
        bus_->publish("cancel", bus_->node_id() + '\n' + session.id() + '\n' + boost::json::serialize(request_id));
    } catch (const StoreUnavailable& e) {
        log().warn("cancellation not forwarded to the other nodes: {}", e.what());
    }
}

std::shared_ptr<Session> SessionService::local(std::string_view id) {
    std::lock_guard lock(local_mutex_);
    auto it = local_.find(std::string(id));
    return it == local_.end() ? nullptr : it->second.lock();
}

std::size_t SessionService::local_entries() {
    std::lock_guard lock(local_mutex_);
    return local_.size();
}

}  // namespace mcp::detail
