#pragma once
// Keep-alive connections by origin. At most `max_per_origin` connections to one origin are in
// use or kept at once; requests beyond wait in the origin's queue, first come first served, each
// until its own deadline, and a full queue refuses at once. A kept connection unused for
// `idle_timeout` is closed. Used on the client's strand only.
#include "net/connection.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mcp::net {

struct PoolLimits {
    std::size_t max_per_origin = 8;
    std::size_t max_queued = 1024;
    std::chrono::milliseconds idle_timeout{30'000};
};

class ConnectionPool {
public:
    // A request's place among its origin's connections, given back when it is destroyed.
    class Lease {
    public:
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&&) = delete;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ~Lease();

        // The kept connection that came with the place, if the origin had one still usable.
        std::unique_ptr<Connection> take_connection() { return std::move(connection_); }
        // Keeps `connection` for the origin's next request once the place is given back.
        void keep(std::unique_ptr<Connection> connection) { connection_ = std::move(connection); }

    private:
        friend class ConnectionPool;
        Lease(ConnectionPool& pool, std::string origin, std::unique_ptr<Connection> connection);

        ConnectionPool* pool_;  // null once moved from
        std::string origin_;
        std::unique_ptr<Connection> connection_;
    };

    explicit ConnectionPool(PoolLimits limits) : limits_(limits) {}

    // A place for a request to `origin`, at once or when one is given back. While queued it waits
    // on `wake`, which the caller set to the request's deadline and cancels to give up: nothing
    // when the deadline passed or the caller gave up. Throws HttpError (queue_full).
    boost::asio::awaitable<std::optional<Lease>> acquire(const std::string& origin, boost::asio::steady_timer& wake);

private:
    struct Waiter {
        boost::asio::steady_timer* wake;
        bool granted = false;
    };
    struct Origin {
        std::size_t in_use = 0;                         // places held, kept connections aside
        std::vector<std::unique_ptr<Connection>> idle;  // most recently used last
        std::deque<std::shared_ptr<Waiter>> waiting;
    };

    void give_back(const std::string& origin, std::unique_ptr<Connection> kept);
    static std::unique_ptr<Connection> take_idle(Origin& origin);
    void forget_closed();

    PoolLimits limits_;
    std::unordered_map<std::string, Origin> origins_;
};

}  // namespace mcp::net
