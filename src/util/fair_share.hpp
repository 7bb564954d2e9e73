#pragma once
// Resources of one kind that clients hold on a node (sessions, listen streams, parked calls),
// bounded per client and in all, and shared fairly at the bound in all
// (docs/adr/0024-fair-limits.md):
// - a client at its own limit is refused;
// - at the bound in all, a newcomer is served by taking the least recently used resource of the
//   client that holds the most, when that client holds more than its fair share: the bound divided
//   among the clients that hold any, the newcomer counted. That resource is ended (its `evict`),
//   and its hold passes to the newcomer, so the count never exceeds the bound;
// - when every client holds its share or less, the newcomer is refused.
// Refusals and evictions are reported (limit_report.hpp). A client's entry exists only while it
// holds something. Holds may outlive the FairShare that gave them.
#include "util/limit_report.hpp"

#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

namespace mcp::detail {

class FairShare {
    struct Entry;
    struct State;

public:
    struct Limits {
        std::size_t total;
        std::size_t per_client;
    };

    // One resource held by one client; given back when destroyed (or when taken for another
    // client, whichever comes first).
    class Hold {
    public:
        Hold() = default;
        Hold(Hold&& other) noexcept = default;
        Hold& operator=(Hold&& other) noexcept;
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;
        ~Hold();
        // The resource was used: it becomes its client's most recently used.
        void touch();

    private:
        friend class FairShare;
        Hold(std::shared_ptr<State> state, std::shared_ptr<Entry> entry)
            : state_(std::move(state)), entry_(std::move(entry)) {}
        void give_back();
        std::shared_ptr<State> state_;
        std::shared_ptr<Entry> entry_;
    };

    // Why a newcomer was refused.
    enum class Refusal : std::uint8_t { client_limit, full };

    explicit FairShare(Bound bound);

    // A hold for `client` within `limits` (read at each take: a server's options may change
    // before it serves), or why not. A client with no key (stdio, in-process) is held to the bound
    // in all only. `evict` ends the resource should its hold be taken later for
    // another client; it runs once, on the thread that takes it, outside this object's lock. When
    // this take evicts another client's resource, that happens before it returns.
    std::variant<Hold, Refusal> take(const std::string& client, Limits limits, std::function<void()> evict);
    // A hold for a resource that exists already and cannot be refused (a session another node
    // made, first served here): counted, beyond the bounds if need be, and evicted like any other.
    Hold hold_anyway(const std::string& client, std::function<void()> evict);

    std::size_t held() const;
    std::size_t held_by(std::string_view client) const;

private:
    Bound bound_;
    std::shared_ptr<State> state_;
};

}  // namespace mcp::detail
