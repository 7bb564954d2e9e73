// The Redis backend: one client shared by the signals between nodes, the session records, the SSE
// journals, the mailbox and the tasks (redis_store.hpp lists the keys).
#include "store/redis/redis_store.hpp"

#include "util/log.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

// Through Sentinel there is a replica to lose writes to: what a client is told was stored (a
// session, a delivered answer) waits this long at most for one replica to have it too.
constexpr std::chrono::milliseconds kReplicaWait{100};

RedisClient::Options options_for(const RedisUrl& url) {
    RedisClient::Options options;
    if (url.sentinels) options.replica_wait = kReplicaWait;
    return options;
}

class RedisBackend final : public Backend {
public:
    explicit RedisBackend(const RedisUrl& url)
        : client_(url, options_for(url)), bus_(client_), mailbox_(client_, bus_), tasks_(client_, bus_.node_id()) {
        if (!client_.wait_connected(std::chrono::seconds(2))) {
            // Unlike a Redis that is not up yet, a certificate refused or a port without TLS is
            // a mistake in the configuration: waiting would not mend it.
            if (auto why = client_.tls_failure(); !why.empty())
                throw std::runtime_error(why + " (see the tls-* parameters of --store)");
            log().warn("Redis is not reachable yet: 2025-era HTTP requests get 503 until it is");
        }
    }

    std::unique_ptr<SessionRecords> make_session_records(std::chrono::milliseconds idle_ttl,
                                                         std::chrono::milliseconds half_open_ttl) override {
        return std::make_unique<RedisSessionRecords>(client_, idle_ttl, half_open_ttl);
    }
    std::unique_ptr<EventJournal> make_journal(const JournalLimits& limits) override {
        return std::make_unique<RedisEventJournal>(client_, limits);
    }
    Mailbox& mailbox() override { return mailbox_; }
    TaskStore& tasks() override { return tasks_; }
    NodeBus* bus() override { return &bus_; }
    bool reachable() const override { return client_.connected(); }

private:
    RedisClient client_;
    RedisNodeBus bus_;
    RedisMailbox mailbox_;
    RedisTaskStore tasks_;
};

}  // namespace

std::shared_ptr<Backend> make_redis_backend(std::string_view url) {
    return std::make_shared<RedisBackend>(RedisUrl::parse(url));
}

}  // namespace mcp::detail
