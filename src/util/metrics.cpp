#include "util/metrics.hpp"

#include "util/log.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace mcp::detail::metrics {

std::uint64_t Counter::value() const noexcept {
    std::uint64_t sum = 0;
    for (const auto& cell : cells_) sum += cell.value.load(std::memory_order_relaxed);
    return sum;
}

std::int64_t Gauge::value() const noexcept {
    std::int64_t sum = 0;
    for (const auto& cell : cells_) sum += cell.value.load(std::memory_order_relaxed);
    return sum;
}

const Buckets& latency_buckets() {
    static const Buckets buckets{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                 0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30,    60};
    return buckets;
}

const Buckets& semconv_buckets() {
    static const Buckets buckets{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300};
    return buckets;
}

Histogram::Histogram(const Buckets& bounds) : bounds_(bounds) {
    if (bounds_.empty() || bounds_.size() > kMaxBuckets || !std::is_sorted(bounds_.begin(), bounds_.end())) {
        throw std::invalid_argument("a histogram needs 1 to 24 ascending bucket bounds");
    }
    for (std::size_t i = 0; i < bounds_.size(); ++i) bounds_ns_[i] = static_cast<std::int64_t>(bounds_[i] * 1e9);
}

void Histogram::observe(std::chrono::nanoseconds value, std::string_view trace_id) noexcept {
    const auto ns = std::max<std::int64_t>(value.count(), 0);
    std::size_t bucket = 0;
    while (bucket < bounds_.size() && ns > bounds_ns_[bucket]) ++bucket;
    auto& shard = shards_[shard_index()];
    shard.counts[bucket].fetch_add(1, std::memory_order_relaxed);
    shard.sum_ns.fetch_add(static_cast<std::uint64_t>(ns), std::memory_order_relaxed);
    if (trace_id.size() == sizeof(ExemplarSlot::trace_id)) keep_exemplar(bucket, value, trace_id);
}

void Histogram::keep_exemplar(std::size_t bucket, std::chrono::nanoseconds value, std::string_view trace_id) noexcept {
    const auto now_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    auto& slot = exemplars_[bucket];
    if (now_ms - slot.at_ms.load(std::memory_order_relaxed) < 1000) return;  // one a second is plenty
    std::unique_lock lock(exemplar_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;  // another thread is keeping one: this one is not needed
    std::memcpy(slot.trace_id, trace_id.data(), sizeof slot.trace_id);
    slot.value = static_cast<double>(value.count()) / 1e9;
    slot.at_ms.store(now_ms, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
    Snapshot out;
    out.cumulative.assign(bounds_.size() + 1, 0);
    std::uint64_t sum_ns = 0;
    for (const auto& shard : shards_) {
        for (std::size_t i = 0; i <= bounds_.size(); ++i)
            out.cumulative[i] += shard.counts[i].load(std::memory_order_relaxed);
        sum_ns += shard.sum_ns.load(std::memory_order_relaxed);
    }
    for (std::size_t i = 1; i < out.cumulative.size(); ++i) out.cumulative[i] += out.cumulative[i - 1];
    out.sum = static_cast<double>(sum_ns) / 1e9;
    std::lock_guard lock(exemplar_mutex_);
    out.exemplars.resize(bounds_.size() + 1);
    for (std::size_t i = 0; i <= bounds_.size(); ++i) {
        const auto& slot = exemplars_[i];
        const auto at = slot.at_ms.load(std::memory_order_relaxed);
        if (at == 0) continue;
        out.exemplars[i] = {std::string(slot.trace_id, sizeof slot.trace_id), slot.value,
                            static_cast<double>(at) / 1e3};
    }
    return out;
}

Family::Family(std::string name, std::string help, Type type, std::vector<std::string> label_names, Buckets buckets)
    : name_(std::move(name)),
      help_(std::move(help)),
      type_(type),
      label_names_(std::move(label_names)),
      buckets_(std::move(buckets)) {}

Family::Series& Family::series(const Labels& labels) {
    if (labels.size() != label_names_.size()) {
        throw std::logic_error("metric " + name_ + " takes " + std::to_string(label_names_.size()) + " labels");
    }
    if (auto it = series_.find(labels); it != series_.end()) return it->second;
    if (series_.size() + callbacks_.size() >= kMaxSeries) {
        const Labels other(label_names_.size(), "other");
        if (!series_.contains(other))
            log().warn("metric {} has {} series: more are counted as \"other\"", name_, kMaxSeries);
        return series_[other];
    }
    return series_[labels];
}

Counter& Family::counter(const Labels& labels) {
    if (type_ != Type::counter) throw std::logic_error("metric " + name_ + " is not a counter");
    std::lock_guard lock(mutex_);
    auto& s = series(labels);
    if (!s.counter) s.counter = std::make_unique<Counter>();
    return *s.counter;
}

Gauge& Family::gauge(const Labels& labels) {
    if (type_ != Type::gauge) throw std::logic_error("metric " + name_ + " is not a gauge");
    std::lock_guard lock(mutex_);
    auto& s = series(labels);
    if (!s.gauge) s.gauge = std::make_unique<Gauge>();
    return *s.gauge;
}

Histogram& Family::histogram(const Labels& labels) {
    if (type_ != Type::histogram) throw std::logic_error("metric " + name_ + " is not a histogram");
    std::lock_guard lock(mutex_);
    auto& s = series(labels);
    if (!s.histogram) s.histogram = std::make_unique<Histogram>(buckets_);
    return *s.histogram;
}

CallbackHandle Family::callback(const Labels& labels, std::function<double()> read) {
    if (type_ != Type::gauge) throw std::logic_error("metric " + name_ + " is not a gauge");
    if (labels.size() != label_names_.size()) throw std::logic_error("metric " + name_ + ": wrong label count");
    std::lock_guard lock(mutex_);
    const auto id = next_callback_++;
    callbacks_.emplace(id, std::make_pair(labels, std::move(read)));
    return CallbackHandle([this, id] {
        std::lock_guard release_lock(mutex_);
        callbacks_.erase(id);
    });
}

std::vector<Family::Sample> Family::collect() const {
    std::vector<Sample> out;
    std::lock_guard lock(mutex_);
    out.reserve(series_.size() + callbacks_.size());
    for (const auto& [labels, s] : series_) {
        out.push_back(Sample{labels, s.counter.get(), s.gauge.get(), s.histogram.get()});
    }
    // Callbacks with the same labels (one per Server in a process) add up to one sample.
    std::map<Labels, double> callbacks;
    for (const auto& [id, callback] : callbacks_) callbacks[callback.first] += callback.second();
    for (auto& [labels, value] : callbacks) {
        Sample sample{labels};
        sample.callback_value = value;
        out.push_back(std::move(sample));
    }
    std::sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) { return a.labels < b.labels; });
    return out;
}

Family& Registry::family(std::string_view name, std::string_view help, Type type, std::vector<std::string> label_names,
                         const Buckets& buckets) {
    std::lock_guard lock(mutex_);
    if (auto it = families_.find(name); it != families_.end()) {
        if (it->second->type() != type || it->second->label_names() != label_names) {
            throw std::logic_error("metric " + std::string(name) + " was declared with another type or labels");
        }
        return *it->second;
    }
    auto family = std::make_unique<Family>(std::string(name), std::string(help), type, std::move(label_names), buckets);
    return *families_.emplace(std::string(name), std::move(family)).first->second;
}

std::vector<const Family*> Registry::families() const {
    std::lock_guard lock(mutex_);
    std::vector<const Family*> out;
    out.reserve(families_.size());
    for (const auto& [name, family] : families_) out.push_back(family.get());
    return out;
}

Registry& registry() {
    static Registry instance;
    return instance;
}

}  // namespace mcp::detail::metrics
