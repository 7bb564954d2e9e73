#include "net/connection_pool.hpp"

#include "net/http_error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <iterator>

namespace mcp::net {

namespace asio = boost::asio;

ConnectionPool::Lease::Lease(ConnectionPool& pool, std::string origin, std::unique_ptr<Connection> connection)
    : pool_(&pool), origin_(std::move(origin)), connection_(std::move(connection)) {}

ConnectionPool::Lease::Lease(Lease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      origin_(std::move(other.origin_)),
      connection_(std::move(other.connection_)) {}

ConnectionPool::Lease::~Lease() {
    if (pool_ != nullptr) pool_->give_back(origin_, std::move(connection_));
}

asio::awaitable<std::optional<ConnectionPool::Lease>> ConnectionPool::acquire(const std::string& origin,
                                                                              asio::steady_timer& wake) {
    auto& entry = origins_[origin];
    if (entry.waiting.empty() && entry.in_use < limits_.max_per_origin) {
        ++entry.in_use;
        co_return Lease(*this, origin, take_idle(entry));
    }
    if (entry.waiting.size() >= limits_.max_queued) {
        throw HttpError(HttpErrorKind::queue_full, "the queue of requests waiting for a connection to " + origin +
                                                       " is full (" + std::to_string(limits_.max_queued) + ")");
    }
    const auto waiter = std::make_shared<Waiter>(Waiter{&wake});
    entry.waiting.push_back(waiter);
    co_await wake.async_wait(asio::as_tuple(asio::use_awaitable));
    auto& after = origins_[origin];  // still there: a waiter keeps its origin's entry
    if (waiter->granted) co_return Lease(*this, origin, take_idle(after));
    std::erase(after.waiting, waiter);
    co_return std::nullopt;
}

void ConnectionPool::give_back(const std::string& origin, std::unique_ptr<Connection> kept) {
    auto& entry = origins_[origin];
    if (kept) {
        kept->expires_at(Connection::Clock::now() + limits_.idle_timeout);
        entry.idle.push_back(std::move(kept));
    }
    if (!entry.waiting.empty()) {  // the place passes to the first in the queue
        const auto next = std::move(entry.waiting.front());
        entry.waiting.pop_front();
        next->granted = true;
        next->wake->cancel();
        return;
    }
    --entry.in_use;
    forget_closed();
}

std::unique_ptr<Connection> ConnectionPool::take_idle(Origin& origin) {
    while (!origin.idle.empty()) {
        auto connection = std::move(origin.idle.back());
        origin.idle.pop_back();
        if (connection->usable()) {
            connection->expires_never();
            return connection;
        }
    }
    return nullptr;
}

// Kept connections the server or the idle timeout closed, and origins with nothing left.
void ConnectionPool::forget_closed() {
    for (auto it = origins_.begin(); it != origins_.end();) {
        auto& entry = it->second;
        std::erase_if(entry.idle, [](const auto& connection) { return !connection->usable(); });
        const bool unused = entry.in_use == 0 && entry.idle.empty() && entry.waiting.empty();
        it = unused ? origins_.erase(it) : std::next(it);
    }
}

}  // namespace mcp::net
