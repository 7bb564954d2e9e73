#pragma once
#include <mcp/server/client_requests.hpp>
#include <mcp/server/session.hpp>
#include <mcp/store/session_store.hpp>

#include "server/call.hpp"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <unordered_map>

namespace mcp {

struct Session::Impl {
    std::string id;
    std::string owner;  // set once, by initialize

    mutable std::mutex mutex;
    std::shared_ptr<MessageSink> channel;
    std::shared_ptr<const ClientState> client;  // set by initialize
    std::set<std::string, std::less<>> subscriptions;
    std::unordered_map<std::string, std::weak_ptr<detail::CallState>> in_flight;
    std::condition_variable idle;
    bool closed = false;

    std::atomic<LogLevel> log_level{LogLevel::info};
    // Tripped by close(): handlers waiting for this client's answers give up at once.
    std::stop_source closed_source;
    // roots/list answers are kept until notifications/roots/list_changed.
    std::optional<std::vector<Root>> roots;

    std::optional<std::vector<Root>> cached_roots() {
        std::lock_guard lock(mutex);
        return roots;
    }
    void cache_roots(std::vector<Root> value) {
        std::lock_guard lock(mutex);
        roots = std::move(value);
    }
    void forget_roots() {
        std::lock_guard lock(mutex);
        roots.reset();
    }

    // Called after the core changed the session's state, so a shared store can write it through
    // before the change is acknowledged; throws mcp::StoreUnavailable when it cannot.
    std::function<void(const SessionChange&)> on_change;
    void changed(const SessionChange& change) {
        if (on_change) on_change(change);
    }
    // Applies a change to this object (the core's own, or one re-applied after a reload).
    void apply(const SessionChange& change);  // mutex held
    // The revision of the shared record this object last loaded or wrote (-1: never), so a record
    // read before a change was written does not undo it. Guarded by `mutex`.
    std::int64_t store_revision = -1;

    // False when a call with the same id is already in flight.
    bool track(const std::shared_ptr<detail::CallState>& call);
    void untrack(const detail::CallState& call);
    // notifications/cancelled: stops the call and suppresses its response.
    // False when no such call runs here.
    bool cancel(const boost::json::value& request_id);
    void set_client(std::shared_ptr<const ClientState> state);
    void subscribe(std::string uri);
    void unsubscribe(std::string_view uri);
};

}  // namespace mcp
