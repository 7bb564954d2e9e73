#pragma once
// Process-wide metrics for Prometheus (docs/adr/0016-operating-it.md): counters, gauges and
// duration histograms with fixed buckets, grouped in families whose label sets are bounded.
//
// The hot path pays one relaxed atomic add per update, on a cache line of its own thread's shard:
// no lock, no lookup by name. Code resolves the series it updates once (at registration, or on a
// series' first use) and keeps the reference; series live as long as the process.
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail::metrics {

// Recording is off until enable() (mcp::run's --metrics); sites check enabled() first, so a
// server without metrics pays a load and a branch.
inline std::atomic<bool> g_enabled{false};
inline bool enabled() noexcept { return g_enabled.load(std::memory_order_relaxed); }
inline void enable() noexcept { g_enabled.store(true, std::memory_order_relaxed); }

inline constexpr std::size_t kShards = 8;

// The calling thread's shard: threads are dealt out round robin, so two busy threads rarely
// write one cache line.
inline std::size_t shard_index() noexcept {
    static std::atomic<std::size_t> next{0};
    thread_local const std::size_t index = next.fetch_add(1, std::memory_order_relaxed) % kShards;
    return index;
}

class Counter {
public:
    void add(std::uint64_t n = 1) noexcept { cells_[shard_index()].value.fetch_add(n, std::memory_order_relaxed); }
    std::uint64_t value() const noexcept;

private:
    struct alignas(64) Cell {
        std::atomic<std::uint64_t> value{0};
    };
    std::array<Cell, kShards> cells_;
};

// A value that goes up and down (open streams, parked requests).
class Gauge {
public:
    void add(std::int64_t n) noexcept { cells_[shard_index()].value.fetch_add(n, std::memory_order_relaxed); }
    std::int64_t value() const noexcept;

private:
    struct alignas(64) Cell {
        std::atomic<std::int64_t> value{0};
    };
    std::array<Cell, kShards> cells_;
};

// +1 on the gauge for the object's life.
class GaugeScope {
public:
    explicit GaugeScope(Gauge* gauge) noexcept : gauge_(gauge) {
        if (gauge_ != nullptr) gauge_->add(1);
    }
    ~GaugeScope() {
        if (gauge_ != nullptr) gauge_->add(-1);
    }
    GaugeScope(GaugeScope&& other) noexcept : gauge_(std::exchange(other.gauge_, nullptr)) {}
    GaugeScope& operator=(GaugeScope&&) = delete;
    GaugeScope(const GaugeScope&) = delete;
    GaugeScope& operator=(const GaugeScope&) = delete;

private:
    Gauge* gauge_;
};

// Bucket upper bounds, in seconds, ascending.
using Buckets = std::vector<double>;
// 100 µs to 60 s: calls, and the store's commands.
const Buckets& latency_buckets();
// 10 ms to 300 s: the bounds the OpenTelemetry MCP semantic conventions advise for their
// operation and session durations, so that dashboards made for them read ours alike.
const Buckets& semconv_buckets();

// A distribution of durations over fixed buckets. A bucket also keeps its latest exemplar: the
// trace id of one observation that fell in it, at most one per second (OpenMetrics exposition).
class Histogram {
public:
    static constexpr std::size_t kMaxBuckets = 24;
    explicit Histogram(const Buckets& bounds);

    void observe(std::chrono::nanoseconds value, std::string_view trace_id = {}) noexcept;

    struct Exemplar {
        std::string trace_id;  // empty: none
        double value = 0;      // seconds
        double timestamp = 0;  // Unix seconds
    };
    struct Snapshot {
        std::vector<std::uint64_t> cumulative;  // one per bound, then +Inf
        double sum = 0;                         // seconds
        std::vector<Exemplar> exemplars;        // one per bucket
    };
    Snapshot snapshot() const;
    const Buckets& bounds() const { return bounds_; }

private:
    struct alignas(64) Shard {
        std::array<std::atomic<std::uint64_t>, kMaxBuckets + 1> counts{};
        std::atomic<std::uint64_t> sum_ns{0};
    };
    struct ExemplarSlot {
        std::atomic<std::int64_t> at_ms{0};
        char trace_id[32] = {};
        double value = 0;
    };
    void keep_exemplar(std::size_t bucket, std::chrono::nanoseconds value, std::string_view trace_id) noexcept;

    Buckets bounds_;
    std::array<std::int64_t, kMaxBuckets> bounds_ns_{};
    std::array<Shard, kShards> shards_;
    mutable std::mutex exemplar_mutex_;
    std::array<ExemplarSlot, kMaxBuckets + 1> exemplars_;
};

enum class Type { counter, gauge, histogram };

// Label values, in the order of the family's label names.
using Labels = std::vector<std::string>;

// Unregisters a callback gauge when destroyed.
class CallbackHandle {
public:
    CallbackHandle() = default;
    explicit CallbackHandle(std::function<void()> release) : release_(std::move(release)) {}
    ~CallbackHandle() {
        if (release_) release_();
    }
    CallbackHandle(CallbackHandle&& other) noexcept : release_(std::exchange(other.release_, nullptr)) {}
    CallbackHandle& operator=(CallbackHandle&& other) noexcept {
        if (this != &other) {
            if (release_) release_();
            release_ = std::exchange(other.release_, nullptr);
        }
        return *this;
    }
    CallbackHandle(const CallbackHandle&) = delete;
    CallbackHandle& operator=(const CallbackHandle&) = delete;

private:
    std::function<void()> release_;
};

// One metric name with its help text, type and label names, and its series.
class Family {
public:
    // More series than this are folded into one whose label values are all "other": a family
    // stays bounded whatever registers names (an application adding tools in a loop).
    static constexpr std::size_t kMaxSeries = 2000;

    Family(std::string name, std::string help, Type type, std::vector<std::string> label_names, Buckets buckets);

    // The series with these label values, made on first use. Not for the hot path: resolve once.
    Counter& counter(const Labels& labels);
    Gauge& gauge(const Labels& labels);
    Histogram& histogram(const Labels& labels);
    // A gauge series whose value is read when scraped; it goes when the handle does. `read` runs
    // under the family's lock and must not touch the registry.
    [[nodiscard]] CallbackHandle callback(const Labels& labels, std::function<double()> read);

    const std::string& name() const { return name_; }
    const std::string& help() const { return help_; }
    Type type() const { return type_; }
    const std::vector<std::string>& label_names() const { return label_names_; }

    // What the exposition reads: every series, in label order.
    struct Sample {
        Labels labels;
        const Counter* counter = nullptr;
        const Gauge* gauge = nullptr;
        const Histogram* histogram = nullptr;
        double callback_value = 0;  // the sum of the callbacks, when none of the above is set
    };
    std::vector<Sample> collect() const;

private:
    struct Series {
        std::unique_ptr<Counter> counter;
        std::unique_ptr<Gauge> gauge;
        std::unique_ptr<Histogram> histogram;
    };
    Series& series(const Labels& labels);  // mutex_ held

    const std::string name_;
    const std::string help_;
    const Type type_;
    const std::vector<std::string> label_names_;
    const Buckets buckets_;
    mutable std::mutex mutex_;
    std::map<Labels, Series> series_;
    std::uint64_t next_callback_ = 0;
    std::map<std::uint64_t, std::pair<Labels, std::function<double()>>> callbacks_;
};

class Registry {
public:
    // The family of that name, made on first use; a second call with another type or other label
    // names throws std::logic_error.
    Family& family(std::string_view name, std::string_view help, Type type, std::vector<std::string> label_names = {},
                   const Buckets& buckets = {});

    // Every family, by name.
    std::vector<const Family*> families() const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, std::unique_ptr<Family>, std::less<>> families_;
};

// The process's registry: Prometheus scrapes one process.
Registry& registry();

// The series kept in `slot`, made by `make` on its first use: later uses are one load. A racing
// thread gets the same series from its family.
template <class Series, class Make>
Series& resolve_once(std::atomic<Series*>& slot, Make&& make) {
    auto* series = slot.load(std::memory_order_acquire);
    if (series == nullptr) {
        series = &make();
        slot.store(series, std::memory_order_release);
    }
    return *series;
}

}  // namespace mcp::detail::metrics
