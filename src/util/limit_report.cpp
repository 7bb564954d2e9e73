#include "util/limit_report.hpp"

#include "util/log.hpp"
#include "util/metrics.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace mcp::detail {

namespace {

constexpr std::array<std::string_view, kBounds> kNames{"connections",  "sessions", "get_streams", "listen_streams",
                                                       "parked_calls", "calls",    "tasks"};

// At most one line per period for each (bound, limit, kind): a flood must not flood the log.
class Throttle {
public:
    // How many were suppressed since the last line, when a line is due now; nothing otherwise.
    std::optional<std::uint64_t> due() {
        const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
        auto next = next_.load(std::memory_order_relaxed);
        if (now < next || !next_.compare_exchange_strong(
                              next, now + std::chrono::steady_clock::duration(std::chrono::seconds(10)).count())) {
            suppressed_.fetch_add(1, std::memory_order_relaxed);
            return std::nullopt;
        }
        return suppressed_.exchange(0, std::memory_order_relaxed);
    }

private:
    std::atomic<std::chrono::steady_clock::rep> next_{0};
    std::atomic<std::uint64_t> suppressed_{0};
};

struct Reports {
    std::array<std::array<metrics::Counter*, 2>, kBounds> refusals{};
    std::array<metrics::Counter*, kBounds> evictions{};
    std::array<std::array<Throttle, 3>, kBounds> lines;  // client limit, total limit, eviction

    Reports() {
        auto& refused = metrics::registry().family(
            "mcp_limit_refusals_total",
            "Newcomers refused at a bound, by bound and by the limit that refused them (the client's own, or the "
            "node's in all with no client above its share)",
            metrics::Type::counter, {"bound", "limit"});
        auto& evicted = metrics::registry().family(
            "mcp_limit_evictions_total",
            "Resources ended at a bound to serve another client, their client holding more than its share",
            metrics::Type::counter, {"bound"});
        for (std::size_t b = 0; b < kBounds; ++b) {
            refusals[b][0] = &refused.counter({std::string(kNames[b]), "client"});
            refusals[b][1] = &refused.counter({std::string(kNames[b]), "total"});
            evictions[b] = &evicted.counter({std::string(kNames[b])});
        }
    }
};

Reports& reports() {
    static Reports r;
    return r;
}

std::string since(std::uint64_t suppressed) {
    return suppressed == 0 ? std::string() : " (" + std::to_string(suppressed) + " more since the last line)";
}

}  // namespace

std::string_view to_string(Bound bound) { return kNames[static_cast<std::size_t>(bound)]; }

void report_refusal(Bound bound, Limit limit, std::string_view client) {
    const auto b = static_cast<std::size_t>(bound);
    const auto l = static_cast<std::size_t>(limit);
    if (metrics::enabled()) reports().refusals[b][l]->add();
    if (auto suppressed = reports().lines[b][l].due()) {
        if (limit == Limit::client) {
            log().warn("limits: {} of client {} refused: at its quota{}", kNames[b], printable(client, 80),
                       since(*suppressed));
        } else {
            log().warn("limits: {} of client {} refused: the node is full and no client holds more than its share{}",
                       kNames[b], printable(client, 80), since(*suppressed));
        }
    }
}

void report_eviction(Bound bound, std::string_view client) {
    const auto b = static_cast<std::size_t>(bound);
    if (metrics::enabled()) reports().evictions[b]->add();
    if (auto suppressed = reports().lines[b][2].due()) {
        log().warn("limits: the node is full of {}: one of client {}, above its share, was ended for another client{}",
                   kNames[b], printable(client, 80), since(*suppressed));
    }
}

}  // namespace mcp::detail
