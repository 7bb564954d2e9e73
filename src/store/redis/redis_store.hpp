#pragma once
// The Redis backend's parts, each over one shared RedisClient; redis_keys.hpp lists the keys.
#include "store/backend.hpp"
#include "store/redis/redis_client.hpp"
#include "store/task_store.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace mcp::detail {

// A command's reply; throws StoreUnavailable for an error reply too: a store that answers errors
// is not usable.
const RespValue& checked(const RespValue& reply);
// A duration as Redis takes it (PX, PEXPIRE): whole milliseconds, at least 1.
std::string redis_ms(std::chrono::milliseconds d);

class RedisNodeBus final : public NodeBus {
public:
    explicit RedisNodeBus(RedisClient& client);
    ~RedisNodeBus() override;

    const std::string& node_id() const override { return node_id_; }
    void publish(std::string_view topic, std::string_view payload) override;
    std::uint64_t subscribe(std::string topic, std::function<void(std::string_view)> handler) override;
    void unsubscribe(std::uint64_t id) override;
    std::uint64_t on_reconnect(std::function<void()> handler) override;

private:
    struct Handler {
        std::string topic;
        std::function<void(std::string_view)> run;
    };
    struct Signal {
        std::string topic;
        std::string payload;
    };
    // Signals are queued by the client's thread and handled on the worker: the client's thread
    // must not wait for its own replies. The queue is shared with the client's callbacks, which
    // may still run while its connection winds down after this object is gone.
    struct Queue {
        std::mutex mutex;
        std::condition_variable changed;
        std::deque<Signal> signals;
        bool stopping = false;
        void post(std::string topic, std::string payload);
    };
    void run();

    RedisClient& client_;
    const std::string node_id_;
    std::mutex handlers_mutex_;  // held by the worker while a handler runs
    std::uint64_t next_id_ = 1;
    std::map<std::uint64_t, Handler> handlers_;
    std::set<std::string> listened_;  // topics whose channels are subscribed to
    std::shared_ptr<Queue> queue_ = std::make_shared<Queue>();
    std::thread worker_;
};

// Session records as a hash and a set per session, changed by scripts, atomically.
class RedisSessionRecords final : public SessionRecords {
public:
    RedisSessionRecords(RedisClient& client, std::chrono::milliseconds idle_ttl,
                        std::chrono::milliseconds half_open_ttl)
        : client_(client), ttl_(idle_ttl), half_open_ttl_(half_open_ttl) {}

    Insert insert(const SessionRecord& record, std::size_t max_per_client) override;
    std::optional<SessionRecord> load(std::string_view id, bool touch) override;
    bool remove(std::string_view id) override;
    std::int64_t apply(std::string_view id, const SessionChange& change) override;
    std::vector<bool> exist(const std::vector<std::string>& ids) override;
    std::vector<std::string> subscribers(std::string_view uri) override;

private:
    std::chrono::milliseconds refresh_interval() const;
    // Whether the session's entries in the indexes (its client's count, the subscriber sets) are to
    // be refreshed with this touch: once per refresh interval per session on this node.
    bool index_refresh_due(std::string_view id);

    RedisClient& client_;
    const std::chrono::milliseconds ttl_;
    const std::chrono::milliseconds half_open_ttl_;
    std::mutex refreshed_mutex_;
    std::unordered_map<std::string, std::chrono::steady_clock::time_point> refreshed_;
    std::chrono::steady_clock::time_point last_sweep_{};
};

// SSE journals as Redis streams.
class RedisEventJournal final : public EventJournal {
public:
    RedisEventJournal(RedisClient& client, JournalLimits limits) : client_(client), limits_(limits) {}

    std::string append(std::string_view stream, std::string data) override;
    std::vector<Event> after(std::string_view stream, std::string_view after, bool& complete) override;
    bool exists(std::string_view stream) override;
    std::string last_id(std::string_view stream) override;
    void drop(std::string_view stream) override;

private:
    RedisClient& client_;
    JournalLimits limits_;
};

// A call on one node expects an answer; it arrives on any node, which stores it and wakes the node
// that expects it with a signal. The woken node takes it (GETDEL) and runs the receiver. After a
// reconnection every expected key is checked once, since a signal may have been missed.
class RedisMailbox final : public Mailbox {
public:
    RedisMailbox(RedisClient& client, NodeBus& bus);
    ~RedisMailbox() override;

    void expect(std::string_view key, std::chrono::milliseconds ttl, Receiver receiver) override;
    bool forget(std::string_view key) override;
    bool deliver(std::string_view key, boost::json::value value) override;

private:
    void wake(std::string_view key);
    void wake_all();
    // The stored answer, taken from Redis, goes to its receiver if the key is still expected.
    void hand_over(const std::string& key, const RespValue& stored);
    Receiver take(const std::string& key);

    RedisClient& client_;
    NodeBus& bus_;
    std::uint64_t delivered_ = 0;
    std::uint64_t reconnected_ = 0;
    std::mutex mutex_;
    std::unordered_map<std::string, Receiver> expected_;
};

// Tasks as a hash each, changed by scripts that compare their status first. A node that runs tasks
// renews a key of its own; a task whose node let it expire fails when next read.
class RedisTaskStore final : public TaskStore {
public:
    RedisTaskStore(RedisClient& client, std::string node);
    ~RedisTaskStore() override;

    bool create(const TaskRecord& record, std::size_t max_per_owner) override;
    std::optional<TaskRecord> get(std::string_view id) override;
    bool finish(std::string_view id, const TaskEnd& end) override;
    bool await_input(std::string_view id, std::string_view requests) override;
    bool answer(std::string_view id, std::string_view responses) override;
    std::optional<std::string> resume(std::string_view id) override;
    void set_message(std::string_view id, std::string_view message) override;
    std::optional<TaskRecord> cancel(std::string_view id) override;
    std::vector<TaskRecord> list(std::string_view owner, std::int64_t after_ms, std::string_view after_id,
                                 std::size_t limit) override;

private:
    void beat();
    void start_heartbeat();

    RedisClient& client_;
    const std::string node_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread heartbeat_;
};

}  // namespace mcp::detail
