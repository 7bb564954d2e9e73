#include "store/backend.hpp"
#include "store/redis/redis_client.hpp"

#include <stdexcept>

namespace mcp::detail {

std::shared_ptr<Backend> make_redis_backend(std::string_view url);  // store/redis/redis_backend.cpp

namespace {

// One node: everything in this process, no signals to send.
class MemoryBackend final : public Backend {
public:
    std::unique_ptr<SessionRecords> make_session_records(std::chrono::milliseconds,
                                                         std::chrono::milliseconds) override {
        return nullptr;
    }
    std::unique_ptr<EventJournal> make_journal(const JournalLimits& limits) override {
        return make_memory_event_journal(limits.events_per_stream, limits.bytes_per_stream, limits.streams);
    }
    Mailbox& mailbox() override { return *mailbox_; }
    TaskStore& tasks() override { return *tasks_; }
    NodeBus* bus() override { return nullptr; }

private:
    std::unique_ptr<Mailbox> mailbox_ = make_memory_mailbox();
    std::unique_ptr<TaskStore> tasks_ = make_memory_task_store();
};

bool names_redis(std::string_view url) {
    for (const std::string_view scheme : {"redis://", "rediss://", "redis-sentinel://", "rediss-sentinel://",
                                          "redis-cluster://", "rediss-cluster://"}) {
        if (url.starts_with(scheme)) return true;
    }
    return false;
}

}  // namespace

void check_store_url(std::string_view url) {
    if (url.empty() || url == "memory") return;
    if (names_redis(url)) {
        RedisUrl::parse(url);
        return;
    }
    // Never echo what may hold a password.
    const bool has_credentials = url.find('@') != std::string_view::npos || url.find('?') != std::string_view::npos;
    throw std::invalid_argument(
        "store: expected memory, redis[s]://[[user]:password@]host[:port][/db][?tls-...], "
        "redis[s]-sentinel://[[user]:password@]host[:port][,host[:port]...]/master-name[/db][?...] or "
        "redis[s]-cluster://[[user]:password@]host[:port][,host[:port]...][?...], got \"" +
        std::string(has_credentials ? "..." : url) + "\"");
}

std::shared_ptr<Backend> make_backend(std::string_view url) {
    check_store_url(url);
    if (names_redis(url)) return make_redis_backend(url);
    return std::make_shared<MemoryBackend>();
}

}  // namespace mcp::detail
