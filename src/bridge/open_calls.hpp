#pragma once
// A mount's calls in flight, for two questions (docs/adr/0029-gateway.md, decision 11):
// - which outer call a request of the inner server belongs to: the inner client does not say, so
//   it is the one call in flight; with none or several, the request is refused, never guessed;
// - 2026 outer clients: which inner call a retry continues. Between rounds a call waits here under
//   an unguessable id (the outer requestState carries it), at most `capacity` of them, each until
//   its deadline; expired ones are abandoned (inner call cancelled) when the table is next used.
#include "bridge/mounted_call.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace mcp::detail {

class OpenCalls {
public:
    using Clock = std::chrono::steady_clock;

    OpenCalls(std::string prefix, std::size_t capacity, std::chrono::milliseconds ttl);
    OpenCalls(const OpenCalls&) = delete;
    OpenCalls& operator=(const OpenCalls&) = delete;

    // A call begins and ends. leave() also takes it out of the parked table.
    void enter(const std::shared_ptr<MountedCall>& call);
    void leave(const std::shared_ptr<MountedCall>& call);

    // How many calls are in flight, those waiting between rounds included.
    std::size_t in_flight() const;

    // The call an inner request belongs to. Throws mcp::Error when there is none, or several.
    std::shared_ptr<MountedCall> route();
    // The call a log message at `level` belongs to: the one call in flight that may have been sent
    // it (MountedCall::may_log); null when none or several may.
    std::shared_ptr<MountedCall> route_log(LogLevel level);

    // Keeps `call` until a retry takes it; returns its id. Throws mcp::Error when the table is full.
    std::string park(const std::shared_ptr<MountedCall>& call);
    // The parked call of that id, out of the table; null when there is none (expired, unknown,
    // taken already, or parked on another node).
    std::shared_ptr<MountedCall> take(std::string_view id);

    // The mount goes: every call in flight is abandoned (its inner requests refused, its inner
    // call cancelled), so that no thread of the inner client still waits when it closes.
    void abandon_all();

private:
    struct Parked {
        std::shared_ptr<MountedCall> call;
        Clock::time_point deadline;
    };
    void expire();  // mutex_ held

    const std::string prefix_;
    const std::size_t capacity_;
    const std::chrono::milliseconds ttl_;
    mutable std::mutex mutex_;
    std::set<std::shared_ptr<MountedCall>> in_flight_;
    std::map<std::string, Parked, std::less<>> parked_;
};

}  // namespace mcp::detail
