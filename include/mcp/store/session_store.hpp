#pragma once
// Where 2025-era HTTP sessions live between requests. The memory store is the default for one
// node; a shared store (Redis) lets several nodes serve one session.
#include <mcp/server/session.hpp>
#include <mcp/store/store_errors.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

// One change the core made to a session after initialize. A shared store applies it atomically,
// so changes made at the same time on different nodes all survive.
struct SessionChange {
    enum class Kind { log_level, subscribe, unsubscribe };
    Kind kind;
    LogLevel level = LogLevel::info;  // log_level
    std::string uri;                  // subscribe, unsubscribe
};

class SessionStore {
public:
    virtual ~SessionStore() = default;
    // Adds a new session. False when the store is full: the caller answers 503.
    virtual bool insert(std::shared_ptr<Session> session) = 0;
    // The session, its idle timer restarted; nullptr when unknown, deleted or expired.
    virtual std::shared_ptr<Session> find(std::string_view id) = 0;
    // The same without restarting the idle timer: for the server's own messages to a session,
    // which must not keep alive a session its client left.
    virtual std::shared_ptr<Session> peek(std::string_view id) = 0;
    // Removes it (DELETE); the removed session, or nullptr when there was none.
    virtual std::shared_ptr<Session> remove(std::string_view id) = 0;
    // Drops sessions idle for longer than their time to live; returns them.
    virtual std::vector<std::shared_ptr<Session>> expire() = 0;
    virtual std::size_t size() const = 0;
    // Writes through a change the core already made to the session object. The memory store
    // holds the objects themselves and has nothing to do.
    virtual void record(Session& session, const SessionChange& change) = 0;
};

// Sessions in this process. At capacity a new session is refused (HTTP 503) rather than evicting
// an idle one: eviction would let a flood of initialize requests push out real clients.
std::unique_ptr<SessionStore> make_memory_session_store(std::size_t max_sessions, std::chrono::milliseconds idle_ttl);

}  // namespace mcp
