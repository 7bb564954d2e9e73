#pragma once
// The thread that calls the shared store may ask to hear of each of its round trips: the core does
// for a traced request, and makes a span of each (docs/adr/0030-tracing.md). The store knows
// nothing of spans; it calls what was handed down. On a thread that did not ask, a round trip costs
// one thread-local read.
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct StoreRoundTrip {
    std::string_view operation;  // the command's name ("GET", "EVALSHA"), the first one's in a pipeline
    std::size_t commands = 1;    // more than one: a pipeline
    std::chrono::system_clock::time_point started;
    bool failed = false;  // unreachable, lost or timed out
};

class StoreObserver {
public:
    // Runs on the calling thread once the round trip ended; must not throw.
    virtual void round_trip(const StoreRoundTrip& trip) noexcept = 0;

protected:
    ~StoreObserver() = default;
};

// Sets this thread's observer while it lives (the one before comes back after).
class ObservingStore {
public:
    explicit ObservingStore(StoreObserver* observer);
    ~ObservingStore();
    ObservingStore(const ObservingStore&) = delete;
    ObservingStore& operator=(const ObservingStore&) = delete;

private:
    StoreObserver* previous_;
};

// Around one round trip of `commands`, in the store's clients: tells the thread's observer, if
// any, when it ends (failed when it ends by an exception).
class ReportRoundTrip {
public:
    explicit ReportRoundTrip(const std::vector<std::vector<std::string>>& commands);
    ~ReportRoundTrip();
    ReportRoundTrip(const ReportRoundTrip&) = delete;
    ReportRoundTrip& operator=(const ReportRoundTrip&) = delete;

private:
    StoreObserver* observer_;
    const std::vector<std::vector<std::string>>& commands_;
    std::chrono::system_clock::time_point started_;
    int exceptions_ = 0;
};

}  // namespace mcp::detail
