#include "telemetry/span_exporter.hpp"

#include "net/http_client.hpp"
#include "net/http_error.hpp"
#include "telemetry/otlp_encoding.hpp"
#include "util/log.hpp"
#include "util/metrics.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

namespace mcp::telemetry {

namespace asio = boost::asio;

namespace {

detail::metrics::Counter& exported_counter() {
    static auto& counter = detail::metrics::registry()
                               .family("mcp_trace_spans_exported_total", "Spans the OTLP collector accepted",
                                       detail::metrics::Type::counter)
                               .counter({});
    return counter;
}

detail::metrics::Family& dropped_family() {
    static auto& family = detail::metrics::registry().family(
        "mcp_trace_spans_dropped_total",
        "Spans not exported: the queue was full (queue_full), or the collector refused them or could not be "
        "reached after the retries (export_failed)",
        detail::metrics::Type::counter, {"reason"});
    return family;
}

net::HttpClientOptions client_options(const ExporterSettings& settings) {
    net::HttpClientOptions options;
    options.tls = settings.tls;
    options.connect_timeout = settings.export_timeout;
    options.request_timeout = settings.export_timeout;
    options.max_connections_per_origin = 1;  // one batch at a time
    options.max_body_bytes = 64 * 1024;      // a collector's answer is small
    return options;
}

}  // namespace

struct SpanExporter::Http {
    explicit Http(const ExporterSettings& settings) : client(io, client_options(settings)) {}
    ~Http() {
        guard.reset();
        io.stop();
        if (thread.joinable()) thread.join();
    }
    asio::io_context io;
    net::HttpClient client;
    asio::executor_work_guard<asio::io_context::executor_type> guard{io.get_executor()};
    std::thread thread{[this] { io.run(); }};
};

SpanExporter::SpanExporter(ExporterSettings settings)
    : settings_(std::move(settings)), http_(std::make_unique<Http>(settings_)), worker_([this] { run(); }) {
    // Every series at 0 from the start, before --metrics may be enabled: a rate() or increase()
    // needs a sample before the first drop to see it, and a dashboard's exported panel a series
    // while the collector is down.
    exported_counter();
    dropped_family().counter({"queue_full"});
    dropped_family().counter({"export_failed"});
}

SpanExporter::~SpanExporter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cancel_.request_stop();
    wake_.notify_all();
    worker_.join();
}

void SpanExporter::push(SpanData span) {
    std::unique_lock lock(mutex_);
    if (queue_.size() >= settings_.max_queue) {
        lock.unlock();
        count_dropped(1, "queue_full");
        return;
    }
    queue_.push_back(std::move(span));
    const bool full_batch = queue_.size() >= settings_.max_batch;
    lock.unlock();
    if (full_batch) wake_.notify_all();
}

bool SpanExporter::flush(std::chrono::milliseconds within) {
    std::unique_lock lock(mutex_);
    const auto deadline = std::chrono::steady_clock::now() + within;
    flush_deadline_ = deadline;
    ++flushing_;
    wake_.notify_all();
    const bool done = progress_.wait_until(lock, deadline, [this] { return queue_.empty() && !sending_; });
    --flushing_;
    return done;
}

SpanExporter::Stats SpanExporter::stats() const {
    std::lock_guard lock(mutex_);
    return {exported_, dropped_, queue_.size()};
}

void SpanExporter::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait_for(lock, settings_.export_interval, [this] {
            return stopping_ || queue_.size() >= settings_.max_batch || (flushing_ > 0 && !queue_.empty());
        });
        if (stopping_) return;
        if (queue_.empty()) continue;
        auto batch = take_batch();
        sending_ = true;
        lock.unlock();
        deliver(batch);
        batch.clear();
        lock.lock();
        spare_ = std::move(batch);  // its room serves the queue again
        sending_ = false;
        progress_.notify_all();
    }
}

std::vector<SpanData> SpanExporter::take_batch() {
    std::vector<SpanData> batch;
    if (queue_.size() <= settings_.max_batch) {
        batch.swap(queue_);
        queue_.swap(spare_);
        return batch;
    }
    const auto end = queue_.begin() + static_cast<std::ptrdiff_t>(settings_.max_batch);
    batch.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(end));
    queue_.erase(queue_.begin(), end);
    return batch;
}

void SpanExporter::deliver(const std::vector<SpanData>& batch) {
    std::string json;
    std::string_view body;
    if (settings_.protocol == OtlpProtocol::http_json) {
        json = encode_json(settings_.resource, batch);
        body = json;
    } else {
        encode_protobuf(settings_.resource, batch, encoded_);
        body = encoded_.bytes();
    }
    for (std::size_t attempt = 0;; ++attempt) {
        const auto outcome = send(body);
        if (outcome == Attempt::sent) {
            std::lock_guard lock(mutex_);
            exported_ += batch.size();
            if (detail::metrics::enabled()) exported_counter().add(batch.size());
            return;
        }
        if (outcome == Attempt::refused || attempt == settings_.retry_delays.size()) break;
        const auto delay = settings_.retry_delays[attempt];
        std::unique_lock lock(mutex_);
        // A flush that must end before the next attempt, or the end, gives the batch up.
        if (flushing_ > 0 && std::chrono::steady_clock::now() + delay > flush_deadline_) break;
        if (wake_.wait_for(lock, delay, [this] { return stopping_; })) break;
    }
    count_dropped(batch.size(), "export_failed");
}

SpanExporter::Attempt SpanExporter::send(std::string_view body) {
    net::HttpRequest request;
    request.method = "POST";
    request.url = settings_.url;
    request.headers.add("Content-Type",
                        settings_.protocol == OtlpProtocol::http_json ? "application/json" : "application/x-protobuf");
    for (const auto& [name, value] : settings_.headers) request.headers.add(name, value);
    request.body = body;
    request.stop = cancel_.get_token();
    try {
        auto response = asio::co_spawn(http_->io, http_->client.fetch(std::move(request)), asio::use_future).get();
        if (response.status >= 200 && response.status < 300) return Attempt::sent;
        const bool transient =
            response.status == 429 || response.status == 502 || response.status == 503 || response.status == 504;
        detail::log().debug("the OTLP collector answered HTTP {}", response.status);
        return transient ? Attempt::retry : Attempt::refused;
    } catch (const std::exception& e) {
        detail::log().debug("exporting spans failed: {}", e.what());
        return Attempt::retry;
    }
}

void SpanExporter::count_dropped(std::size_t spans, const char* reason) {
    {
        std::lock_guard lock(mutex_);
        dropped_ += spans;
    }
    if (detail::metrics::enabled()) dropped_family().counter({reason}).add(spans);
}

}  // namespace mcp::telemetry
