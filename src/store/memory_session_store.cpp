#include <mcp/store/session_store.hpp>

#include <mutex>
#include <string>
#include <unordered_map>

namespace mcp {

namespace {

class MemorySessionStore final : public SessionStore {
public:
    MemorySessionStore(std::size_t max, std::chrono::milliseconds ttl) : max_(max), ttl_(ttl) {}

    bool insert(std::shared_ptr<Session> session) override {
        std::lock_guard lock(mutex_);
        if (sessions_.size() >= max_) {
            expire_locked(Clock::now());
            if (sessions_.size() >= max_) return false;
        }
        const std::string id = session->id();
        sessions_[id] = Entry{std::move(session), Clock::now()};
        return true;
    }

    std::shared_ptr<Session> find(std::string_view id) override { return lookup(id, true); }
    std::shared_ptr<Session> peek(std::string_view id) override { return lookup(id, false); }

    std::shared_ptr<Session> remove(std::string_view id) override {
        std::lock_guard lock(mutex_);
        auto it = sessions_.find(std::string(id));
        if (it == sessions_.end()) return nullptr;
        auto session = std::move(it->second.session);
        sessions_.erase(it);
        return session;
    }

    std::vector<std::shared_ptr<Session>> expire() override {
        std::lock_guard lock(mutex_);
        return expire_locked(Clock::now());
    }

    void record(Session&, const SessionChange&) override {}

    std::shared_ptr<Session> lookup(std::string_view id, bool touch) {
        std::lock_guard lock(mutex_);
        auto it = sessions_.find(std::string(id));
        if (it == sessions_.end()) return nullptr;
        const auto now = Clock::now();
        if (now - it->second.last_used > ttl_) return nullptr;  // expire() will collect it
        if (touch) it->second.last_used = now;
        return it->second.session;
    }

    std::size_t size() const override {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }

private:
    using Clock = std::chrono::steady_clock;
    struct Entry {
        std::shared_ptr<Session> session;
        Clock::time_point last_used;
    };

    std::vector<std::shared_ptr<Session>> expire_locked(Clock::time_point now) {
        std::vector<std::shared_ptr<Session>> expired;
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (now - it->second.last_used > ttl_) {
                expired.push_back(std::move(it->second.session));
                it = sessions_.erase(it);
            } else {
                ++it;
            }
        }
        return expired;
    }

    const std::size_t max_;
    const std::chrono::milliseconds ttl_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entry> sessions_;
};

}  // namespace

std::unique_ptr<SessionStore> make_memory_session_store(std::size_t max_sessions, std::chrono::milliseconds idle_ttl) {
    return std::make_unique<MemorySessionStore>(max_sessions, idle_ttl);
}

}  // namespace mcp
