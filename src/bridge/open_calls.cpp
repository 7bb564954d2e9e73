#include "bridge/open_calls.hpp"

#include "util/metrics.hpp"
#include "util/random.hpp"

#include <mcp/protocol/errors.hpp>

#include <utility>

namespace mcp::detail {

namespace {

// What became of the calls kept between the rounds of 2026 outer clients.
void count(const std::string& prefix, const char* outcome) {
    if (!metrics::enabled()) return;
    static auto& family = metrics::registry().family(
        "mcp_mount_parked_calls_total",
        "Mounted calls kept between the input rounds of 2026 outer clients, by mount and outcome",
        metrics::Type::counter, {"mount", "outcome"});
    family.counter({prefix, outcome}).add();
}

}  // namespace

OpenCalls::OpenCalls(std::string prefix, std::size_t capacity, std::chrono::milliseconds ttl)
    : prefix_(std::move(prefix)), capacity_(capacity), ttl_(ttl) {}

void OpenCalls::enter(const std::shared_ptr<MountedCall>& call) {
    std::lock_guard lock(mutex_);
    in_flight_.insert(call);
}

std::size_t OpenCalls::in_flight() const {
    std::lock_guard lock(mutex_);
    return in_flight_.size();
}

void OpenCalls::leave(const std::shared_ptr<MountedCall>& call) {
    std::lock_guard lock(mutex_);
    in_flight_.erase(call);
    for (auto it = parked_.begin(); it != parked_.end(); ++it) {
        if (it->second.call == call) {
            parked_.erase(it);
            break;
        }
    }
}

std::shared_ptr<MountedCall> OpenCalls::route() {
    std::lock_guard lock(mutex_);
    expire();
    if (in_flight_.size() == 1) return *in_flight_.begin();
    const std::string who = "mounted server \"" + prefix_ + "\": ";
    if (in_flight_.empty()) {
        throw Error(error_code::invalid_request, who + "no call of this mount is in flight to ask the client through");
    }
    // A 2025 server's request does not say which of its calls it is for (over stdio): guessing
    // could show one caller's question to another.
    throw Error(error_code::invalid_request,
                who + "several calls of this mount are in flight, and the request does not say which it belongs to");
}

std::shared_ptr<MountedCall> OpenCalls::route_log(LogLevel level) {
    std::lock_guard lock(mutex_);
    std::shared_ptr<MountedCall> found;
    for (const auto& call : in_flight_) {
        if (!call->may_log(level)) continue;
        if (found) return nullptr;  // several: never guessed
        found = call;
    }
    return found;
}

std::string OpenCalls::park(const std::shared_ptr<MountedCall>& call) {
    std::lock_guard lock(mutex_);
    expire();
    if (parked_.size() >= capacity_) {
        count(prefix_, "refused");
        throw Error(error_code::internal_error, "mounted server \"" + prefix_ + "\": too many calls wait for input (" +
                                                    std::to_string(capacity_) + ")");
    }
    auto id = random_token();
    parked_.emplace(id, Parked{call, Clock::now() + ttl_});
    count(prefix_, "parked");
    return id;
}

std::shared_ptr<MountedCall> OpenCalls::take(std::string_view id) {
    std::lock_guard lock(mutex_);
    expire();
    auto it = parked_.find(id);
    if (it == parked_.end()) {
        count(prefix_, "unknown");
        return nullptr;
    }
    auto call = std::move(it->second.call);
    parked_.erase(it);
    count(prefix_, "resumed");
    return call;
}

void OpenCalls::abandon_all() {
    std::set<std::shared_ptr<MountedCall>> calls;
    {
        std::lock_guard lock(mutex_);
        calls.swap(in_flight_);
        parked_.clear();
    }
    for (const auto& call : calls) call->abandon("the mount was removed");
}

void OpenCalls::expire() {
    const auto now = Clock::now();
    for (auto it = parked_.begin(); it != parked_.end();) {
        if (it->second.deadline > now) {
            ++it;
            continue;
        }
        // abandon() takes only the call's own lock: nothing waits on this one under it.
        it->second.call->abandon("the outer client did not answer in time");
        in_flight_.erase(it->second.call);
        it = parked_.erase(it);
        count(prefix_, "expired");
    }
}

}  // namespace mcp::detail
