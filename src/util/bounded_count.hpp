#pragma once
// A count of things under way bounded by a limit (a node's parked calls, a session's GET
// connections, token introspections in flight), and the place each of them holds. Taking a place
// fails at the limit; a place is given back when its holder is destroyed, however that ends. The
// count is shared with its places, so a place may outlive the object that counted it (a GET
// connection ending after its session was removed).
#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

namespace mcp::detail {

class BoundedCount {
    using Counter = std::atomic<std::size_t>;

public:
    class Place {
    public:
        Place(Place&& other) noexcept : count_(std::move(other.count_)) {}
        Place& operator=(Place&& other) noexcept {
            Place(std::move(other)).swap(*this);  // what this held is given back
            return *this;
        }
        Place(const Place&) = delete;
        Place& operator=(const Place&) = delete;
        ~Place() {
            if (count_) --*count_;
        }

    private:
        friend class BoundedCount;
        explicit Place(std::shared_ptr<Counter> count) : count_(std::move(count)) {}
        void swap(Place& other) noexcept { count_.swap(other.count_); }
        std::shared_ptr<Counter> count_;  // null once moved from
    };

    // A place, or nothing when `limit` are taken.
    std::optional<Place> try_take(std::size_t limit) {
        for (auto n = count_->load(); n < limit;) {
            if (count_->compare_exchange_weak(n, n + 1)) return Place(count_);
        }
        return std::nullopt;
    }

    std::size_t taken() const { return count_->load(); }

private:
    std::shared_ptr<Counter> count_ = std::make_shared<Counter>(0);
};

}  // namespace mcp::detail
