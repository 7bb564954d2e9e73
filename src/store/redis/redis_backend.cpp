// The Redis backend: sessions, mailboxes, SSE journals and the signals between nodes, every key
// under the "mcp:" prefix and with a time to live.
//   mcp:s:<session>          session hash (rev, level, client), PX idle timeout, refreshed on use
//   mcp:ss:<session>         the session's resource subscriptions, expiring with it
//   mcp:sub:<uri>            set of session ids subscribed to a resource
//   mcp:j:<session>/<stream> SSE journal (a Redis stream), trimmed and expiring with the session
//   mcp:mbo:<id> / mcp:mb:<id>  mailbox: "a handler waits" marker, and the delivered answer
//   channel mcp:bus:<topic>  wake-ups: mailbox, wake (journal), changed, deleted, cancel
#include "store/backend.hpp"
#include "store/redis/redis_client.hpp"
#include "store/session_record.hpp"

#include "server/session_impl.hpp"
#include "util/log.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;
std::string ms(std::chrono::milliseconds d) { return std::to_string(std::max<std::int64_t>(d.count(), 1)); }

// Throws StoreUnavailable for an error reply too: a store that answers errors is not usable.
const RespValue& checked(const RespValue& reply) {
    if (reply.is_error()) throw StoreUnavailable("Redis refused a command: " + reply.text);
    return reply;
}

class RedisCluster final : public Cluster {
public:
    explicit RedisCluster(RedisClient& client) : client_(client) {
        // Signals are queued here and handled on the worker: the client's thread must not wait
        // for its own replies.
        // The callbacks share the queue rather than point at this object: the client (destroyed
        // after it) may still run them while its connection winds down.
        client_.psubscribe("mcp:bus:*", [queue = queue_](std::string_view channel, std::string_view payload) {
            queue->post(std::string(channel.substr(std::string_view("mcp:bus:").size())), std::string(payload));
        });
        client_.on_reconnect([queue = queue_] { queue->post(std::string(kReconnected), {}); });
    }

    ~RedisCluster() override {
        {
            std::lock_guard lock(queue_->mutex);
            queue_->stopping = true;
        }
        queue_->changed.notify_one();
        worker_.join();
    }

    void publish(std::string_view topic, std::string_view payload) override {
        checked(client_.command({"PUBLISH", "mcp:bus:" + std::string(topic), std::string(payload)}));
    }

    std::uint64_t subscribe(std::string topic, std::function<void(std::string_view)> handler) override {
        std::lock_guard lock(handlers_mutex_);
        const auto id = next_id_++;
        handlers_.emplace(id, Handler{std::move(topic), std::move(handler)});
        return id;
    }

    void unsubscribe(std::uint64_t id) override {
        std::lock_guard lock(handlers_mutex_);  // held by the worker while a handler runs
        handlers_.erase(id);
    }

    std::uint64_t on_reconnect(std::function<void()> handler) override {
        return subscribe(std::string(kReconnected), [handler = std::move(handler)](std::string_view) { handler(); });
    }

    std::vector<std::string> subscribers(std::string_view uri) override {
        // Sessions that expired are dropped from the set here: nothing else removes them.
        static const std::string script =
            "local out = {} "
            "for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do "
            "if redis.call('EXISTS', ARGV[1] .. id) == 1 then out[#out + 1] = id else redis.call('SREM', KEYS[1], id) end "
            "end return out";
        auto reply = checked(client_.command({"EVAL", script, "1", "mcp:sub:" + std::string(uri), "mcp:s:"}));
        std::vector<std::string> out;
        for (auto& e : reply.elements) out.push_back(std::move(e.text));
        return out;
    }

private:
    struct Handler {
        std::string topic;
        std::function<void(std::string_view)> run;
    };
    struct Signal {
        std::string topic;
        std::string payload;
    };
    // Not a channel name (those are "mcp:bus:<topic>"), so no publish can fake it.
    static constexpr std::string_view kReconnected = "\n reconnected";

    struct Queue {
        std::mutex mutex;
        std::condition_variable changed;
        std::deque<Signal> signals;
        bool stopping = false;

        void post(std::string topic, std::string payload) {
            {
                std::lock_guard lock(mutex);
                if (stopping) return;
                signals.push_back(Signal{std::move(topic), std::move(payload)});
            }
            changed.notify_one();
        }
    };

    void run() {
        std::unique_lock lock(queue_->mutex);
        while (true) {
            queue_->changed.wait(lock, [&] { return queue_->stopping || !queue_->signals.empty(); });
            if (queue_->stopping) return;
            auto signal = std::move(queue_->signals.front());
            queue_->signals.pop_front();
            lock.unlock();
            {
                std::lock_guard handlers_lock(handlers_mutex_);
                for (auto& [id, h] : handlers_) {
                    if (h.topic != signal.topic) continue;
                    try {
                        h.run(signal.payload);
                    } catch (const std::exception& e) {
                        // Usually Redis going away mid-handler; pub/sub is only a wake-up, the state
                        // converges. The other handlers of the signal still run.
                        log().debug("cluster signal {} not handled: {}", signal.topic, e.what());
                    }
                }
            }
            lock.lock();
        }
    }

    RedisClient& client_;
    std::mutex handlers_mutex_;
    std::uint64_t next_id_ = 1;
    std::map<std::uint64_t, Handler> handlers_;

    std::shared_ptr<Queue> queue_ = std::make_shared<Queue>();
    std::thread worker_{[this] { run(); }};
};

// Sessions in Redis: a hash with the revision, log level and client record, and a set of the
// session's subscriptions. Changes are applied by scripts, atomically, so concurrent changes on
// different nodes all survive; the session objects, with their calls in flight, stay local.
class RedisSessionStore final : public SessionStore {
public:
    RedisSessionStore(RedisClient& client, Cluster& cluster, std::size_t max, std::chrono::milliseconds ttl,
                      Backend::SessionFactory adopt)
        : client_(client), cluster_(cluster), max_(max), ttl_(ttl), adopt_(std::move(adopt)) {
        // Another node changed a session this node holds (its log level...): reload it.
        changed_ = cluster_.subscribe("changed", [this](std::string_view id) { refresh(id); });
    }
    ~RedisSessionStore() override { cluster_.unsubscribe(changed_); }

    bool insert(std::shared_ptr<Session> session) override {
        {
            std::lock_guard lock(mutex_);
            if (local_.size() >= max_) return false;
        }
        static const std::string script =
            "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end "
            "redis.call('HSET', KEYS[1], 'rev', 0, 'level', ARGV[1], 'client', ARGV[2]) "
            "redis.call('PEXPIRE', KEYS[1], ARGV[3]) return 1";
        const auto& id = session->id();
        auto reply = checked(client_.command({"EVAL", script, "1", key(id), std::string(to_string(session->log_level())),
                                              client_record(*session), ms(ttl_)}));
        if (reply.integer != 1) return false;  // taken: cannot happen with random ids
        {
            std::lock_guard lock(session->impl().mutex);
            session->impl().store_revision = 0;
        }
        std::lock_guard lock(mutex_);
        local_[id] = std::move(session);
        return true;
    }

    std::shared_ptr<Session> find(std::string_view id) override { return lookup(id, true); }
    std::shared_ptr<Session> peek(std::string_view id) override { return lookup(id, false); }

    std::shared_ptr<Session> lookup(std::string_view id, bool touch) {
        std::vector<std::vector<std::string>> commands{{"HGETALL", key(id)}, {"SMEMBERS", subscriptions_key(id)}};
        if (touch) {
            commands.push_back({"PEXPIRE", key(id), ms(ttl_)});
            commands.push_back({"PEXPIRE", subscriptions_key(id), ms(ttl_)});
        }
        auto replies = client_.pipeline(std::move(commands));
        auto stored = parse(checked(replies[0]), checked(replies[1]));
        std::unique_lock lock(mutex_);
        if (!stored) {
            local_.erase(std::string(id));
            return nullptr;
        }
        auto [it, first_seen] = local_.try_emplace(std::string(id));
        if (first_seen) it->second = adopt_(std::string(id));
        if (!load_stored_session(*it->second, *stored)) {
            if (first_seen) local_.erase(it);  // a malformed record adopts nothing
            return nullptr;
        }
        auto found = it->second;
        lock.unlock();
        if (!touch) return found;
        // The subscriber sets live as long as their sessions.
        std::vector<std::vector<std::string>> refresh;
        for (const auto& uri : stored->subscriptions) refresh.push_back({"PEXPIRE", subscribers_key(uri), ms(ttl_)});
        if (!refresh.empty()) client_.pipeline(std::move(refresh));
        return found;
    }

    std::shared_ptr<Session> remove(std::string_view id) override {
        static const std::string script =
            "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end "
            "for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('SREM', ARGV[2] .. uri, ARGV[1]) end "
            "redis.call('DEL', KEYS[1], KEYS[2]) return 1";
        auto reply = checked(client_.command({"EVAL", script, "2", key(id), subscriptions_key(id), std::string(id),
                                              std::string(kSubscribersPrefix)}));
        std::shared_ptr<Session> session;
        {
            std::lock_guard lock(mutex_);
            if (auto it = local_.find(std::string(id)); it != local_.end()) {
                session = std::move(it->second);
                local_.erase(it);
            }
        }
        if (reply.integer != 1) return nullptr;
        return session ? session : std::make_shared<Session>(nullptr, std::string(id));
    }

    std::vector<std::shared_ptr<Session>> expire() override {
        std::vector<std::string> ids;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [id, s] : local_) ids.push_back(id);
        }
        if (ids.empty()) return {};
        std::vector<std::vector<std::string>> commands;
        for (const auto& id : ids) commands.push_back({"EXISTS", key(id)});
        auto replies = client_.pipeline(std::move(commands));
        std::vector<std::shared_ptr<Session>> gone;
        std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (checked(replies[i]).integer != 0) continue;
            if (auto it = local_.find(ids[i]); it != local_.end()) {
                gone.push_back(std::move(it->second));
                local_.erase(it);
            }
        }
        return gone;
    }

    std::size_t size() const override {
        std::lock_guard lock(mutex_);
        return local_.size();
    }

    void record(Session& session, const SessionChange& change) override {
        // Each script changes a session that still exists (a deleted one stays deleted) and
        // returns the new revision, -1 when it is gone.
        static const std::string set_level =
            "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
            "redis.call('HSET', KEYS[1], 'level', ARGV[1]) return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
        static const std::string subscribe =
            "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
            "redis.call('SADD', KEYS[2], ARGV[1]) redis.call('PEXPIRE', KEYS[2], ARGV[3]) "
            "redis.call('SADD', KEYS[3], ARGV[2]) redis.call('PEXPIRE', KEYS[3], ARGV[3]) "
            "return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
        static const std::string unsubscribe =
            "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
            "redis.call('SREM', KEYS[2], ARGV[1]) redis.call('SREM', KEYS[3], ARGV[2]) "
            "return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
        const auto& id = session.id();
        RespValue reply;
        switch (change.kind) {
            case SessionChange::Kind::log_level:
                reply = checked(client_.command({"EVAL", set_level, "1", key(id), std::string(to_string(change.level))}));
                break;
            case SessionChange::Kind::subscribe:
            case SessionChange::Kind::unsubscribe:
                reply = checked(client_.command({"EVAL", change.kind == SessionChange::Kind::subscribe ? subscribe : unsubscribe, "3",
                                                 key(id), subscriptions_key(id), subscribers_key(change.uri), change.uri, id,
                                                 ms(ttl_)}));
                break;
        }
        if (reply.integer < 0) return;  // deleted meanwhile: the next request finds it gone
        bool missed = false;
        {
            // A reload may have run between the core's change and this write: the change is made
            // again. When the revision skipped one, another node's change came first and is not
            // here yet: the object keeps its revision, so the reload below (or a later one) loads
            // the whole state, both changes.
            auto& impl = session.impl();
            std::lock_guard lock(impl.mutex);
            impl.apply(change);
            missed = reply.integer != impl.store_revision + 1;
            if (!missed) impl.store_revision = reply.integer;
        }
        if (missed) {
            try {
                refresh(id);
            } catch (const StoreUnavailable&) {
                // Stored all the same; the next request's reload catches up.
            }
        }
        cluster_.publish("changed", id);
    }

    // Reloads a session this node holds after another node changed it.
    void refresh(std::string_view id) {
        {
            std::lock_guard lock(mutex_);
            if (!local_.contains(std::string(id))) return;
        }
        peek(id);
    }

private:
    static constexpr std::string_view kSubscribersPrefix = "mcp:sub:";
    static std::string key(std::string_view id) { return "mcp:s:" + std::string(id); }
    static std::string subscriptions_key(std::string_view id) { return "mcp:ss:" + std::string(id); }
    static std::string subscribers_key(std::string_view uri) { return std::string(kSubscribersPrefix) + std::string(uri); }

    // Nothing when the session does not exist; a record with missing fields is loaded as malformed.
    static std::optional<StoredSession> parse(const RespValue& hash, const RespValue& subscriptions) {
        if (hash.elements.empty()) return std::nullopt;
        StoredSession stored;
        stored.revision = -1;
        for (std::size_t i = 0; i + 1 < hash.elements.size(); i += 2) {
            const auto& field = hash.elements[i].text;
            const auto& value = hash.elements[i + 1].text;
            if (field == "rev") {
                const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), stored.revision);
                if (ec != std::errc() || end != value.data() + value.size()) stored.revision = -1;
            } else if (field == "level") {
                stored.level = value;
            } else if (field == "client") {
                stored.client = value;
            }
        }
        for (const auto& uri : subscriptions.elements) stored.subscriptions.push_back(uri.text);
        return stored;
    }

    RedisClient& client_;
    Cluster& cluster_;
    const std::size_t max_;
    const std::chrono::milliseconds ttl_;
    const Backend::SessionFactory adopt_;
    std::uint64_t changed_ = 0;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<Session>> local_;
};

// SSE journals as Redis streams.
class RedisEventJournal final : public EventJournal {
public:
    RedisEventJournal(RedisClient& client, JournalLimits limits) : client_(client), limits_(limits) {}

    std::string append(std::string_view stream, std::string data) override {
        auto replies = client_.pipeline({{"XADD", key(stream), "MAXLEN", "~", std::to_string(limits_.events_per_stream), "*", "d",
                                          std::move(data)},
                                         {"PEXPIRE", key(stream), ms(limits_.ttl)}});
        return checked(replies[0]).text;
    }

    std::vector<Event> after(std::string_view stream, std::string_view after, bool& complete) override {
        std::string start = "-";  // all of them, or those after `after` (exclusive)
        if (!after.empty()) start.assign("(").append(after);
        auto reply = checked(client_.command({"XRANGE", key(stream), start, "+"}));
        complete = true;  // trimming is approximate in Redis; a gap is not detected here
        std::vector<Event> out;
        for (auto& entry : reply.elements) {
            if (entry.elements.size() != 2 || entry.elements[1].elements.size() != 2) continue;
            out.push_back(Event{std::move(entry.elements[0].text), std::move(entry.elements[1].elements[1].text)});
        }
        return out;
    }

    bool exists(std::string_view stream) override { return checked(client_.command({"EXISTS", key(stream)})).integer == 1; }

    std::string last_id(std::string_view stream) override {
        auto reply = checked(client_.command({"XREVRANGE", key(stream), "+", "-", "COUNT", "1"}));
        return reply.elements.empty() ? std::string() : reply.elements[0].elements[0].text;
    }

    void drop(std::string_view stream) override { checked(client_.command({"DEL", key(stream)})); }

private:
    static std::string key(std::string_view stream) { return "mcp:j:" + std::string(stream); }
    RedisClient& client_;
    JournalLimits limits_;
};

// A handler on one node waits; the answer arrives on any node and wakes it (Mocapi ADR-0008).
class RedisMailbox final : public Mailbox {
public:
    RedisMailbox(RedisClient& client, Cluster& cluster) : client_(client), cluster_(cluster) {
        delivered_ = cluster_.subscribe("mailbox", [this](std::string_view key) { wake(key); });
        reconnected_ = cluster_.on_reconnect([this] { wake_all(); });  // a delivery may have been missed
    }
    ~RedisMailbox() override {
        cluster_.unsubscribe(delivered_);
        cluster_.unsubscribe(reconnected_);
    }

    void open(std::string_view key, std::chrono::milliseconds ttl) override {
        {
            std::lock_guard lock(mutex_);
            waiting_[std::string(key)];
        }
        try {
            checked(client_.command({"SET", "mcp:mbo:" + std::string(key), "1", "PX", ms(ttl)}));
        } catch (const StoreUnavailable&) {
            std::lock_guard lock(mutex_);
            waiting_.erase(std::string(key));
            throw;
        }
    }

    std::optional<boost::json::value> wait(std::string_view key, Clock::time_point deadline, std::stop_token stop) override {
        const std::string k(key);
        std::optional<boost::json::value> value;
        {
            std::stop_callback on_stop(stop, [this] { wake_all(); });
            while (!value && !stop.stop_requested() && Clock::now() < deadline) {
                try {
                    auto reply = client_.command({"GETDEL", "mcp:mb:" + k});
                    if (!reply.is_nil() && !reply.is_error()) {
                        boost::system::error_code ec;
                        auto parsed = boost::json::parse(reply.text, ec);
                        if (!ec) value = std::move(parsed);
                        break;
                    }
                } catch (const StoreUnavailable&) {
                    // Redis is away: keep waiting for it, within the deadline.
                }
                // Pub/sub only wakes us early; the poll is what guarantees progress.
                std::unique_lock lock(mutex_);
                auto& slot = waiting_[k];
                slot.changed.wait_until(lock, std::min(deadline, Clock::now() + std::chrono::milliseconds(500)),
                                        [&] { return slot.woken || stop.stop_requested(); });
                slot.woken = false;
            }
        }
        {
            std::lock_guard lock(mutex_);
            waiting_.erase(k);
        }
        try {
            client_.command({"DEL", "mcp:mbo:" + k});
        } catch (const StoreUnavailable&) {
            // The marker expires by itself.
        }
        return value;
    }

    bool deliver(std::string_view key, boost::json::value value) override {
        // Stored only while a handler waits; then the waiter's node is woken.
        static const std::string script =
            "if redis.call('DEL', KEYS[1]) == 1 then "
            "redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2]) "
            "redis.call('PUBLISH', 'mcp:bus:mailbox', ARGV[3]) return 1 end return 0";
        const std::string k(key);
        auto reply = checked(client_.command({"EVAL", script, "2", "mcp:mbo:" + k, "mcp:mb:" + k,
                                              boost::json::serialize(value), "600000", k}));
        return reply.integer == 1;
    }

private:
    struct Slot {
        std::condition_variable changed;
        bool woken = false;
    };

    void wake(std::string_view key) {
        std::lock_guard lock(mutex_);
        auto it = waiting_.find(std::string(key));
        if (it == waiting_.end()) return;
        it->second.woken = true;
        it->second.changed.notify_all();
    }

    void wake_all() {
        std::lock_guard lock(mutex_);
        for (auto& [key, slot] : waiting_) {
            slot.woken = true;
            slot.changed.notify_all();
        }
    }

    RedisClient& client_;
    Cluster& cluster_;
    std::uint64_t delivered_ = 0;
    std::uint64_t reconnected_ = 0;
    std::mutex mutex_;
    std::unordered_map<std::string, Slot> waiting_;
};

class RedisBackend final : public Backend {
public:
    explicit RedisBackend(RedisUrl url) : client_(std::move(url), {}), cluster_(client_), mailbox_(client_, cluster_) {
        if (!client_.wait_connected(std::chrono::seconds(2))) {
            log().warn("Redis is not reachable yet: 2025-era HTTP requests get 503 until it is");
        }
    }

    std::unique_ptr<SessionStore> make_session_store(std::size_t max, std::chrono::milliseconds ttl, SessionFactory adopt) override {
        return std::make_unique<RedisSessionStore>(client_, cluster_, max, ttl, std::move(adopt));
    }
    std::unique_ptr<EventJournal> make_journal(const JournalLimits& limits) override {
        return std::make_unique<RedisEventJournal>(client_, limits);
    }
    Mailbox& mailbox() override { return mailbox_; }
    Cluster* cluster() override { return &cluster_; }

private:
    RedisClient client_;
    RedisCluster cluster_;
    RedisMailbox mailbox_;
};

}  // namespace

std::shared_ptr<Backend> make_redis_backend(std::string_view url) {
    return std::make_shared<RedisBackend>(RedisUrl::parse(url));
}

}  // namespace mcp::detail
