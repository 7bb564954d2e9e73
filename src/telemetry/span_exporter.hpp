#pragma once
// Spans on their way to the collector, off the calls' threads: a bounded queue that push() adds to
// without waiting (a full queue drops the span and counts it), and a thread that posts batches
// over OTLP/HTTP with net's client, retrying a failed batch with backoff.
#include "net/http_headers.hpp"
#include "telemetry/protobuf_writer.hpp"
#include "telemetry/span.hpp"

#include <mcp/net/http_options.hpp>
#include <mcp/telemetry/tracing_options.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

namespace mcp::telemetry {

struct ExporterSettings {
    std::string url;
    OtlpProtocol protocol = OtlpProtocol::http_protobuf;
    std::vector<std::pair<std::string, std::string>> headers;
    net::TlsOptions tls;
    Attributes resource;
    std::size_t max_queue = 4096;
    std::size_t max_batch = 512;
    std::chrono::milliseconds export_interval{1000};
    std::chrono::milliseconds export_timeout{10'000};
    // Delays before the second, third... attempt of a batch; then it is dropped.
    std::vector<std::chrono::milliseconds> retry_delays{std::chrono::milliseconds(200), std::chrono::milliseconds(400),
                                                        std::chrono::milliseconds(800)};
};

class SpanExporter {
public:
    // Throws std::invalid_argument when the client cannot be made (a TLS file).
    explicit SpanExporter(ExporterSettings settings);
    // Stops at once, cancelling an export in flight: what is still queued is lost (flush first).
    ~SpanExporter();
    SpanExporter(const SpanExporter&) = delete;
    SpanExporter& operator=(const SpanExporter&) = delete;

    // Never blocks on the network: a full queue drops the span.
    void push(SpanData span);
    // Sends what is queued now, within `within`; true when all of it went out (or was given up).
    bool flush(std::chrono::milliseconds within);

    struct Stats {
        std::uint64_t exported = 0;
        std::uint64_t dropped = 0;  // queue full, or the collector refused or could not be reached
        std::size_t queued = 0;
    };
    Stats stats() const;

private:
    struct Http;  // net's client on an I/O thread of its own
    enum class Attempt { sent, retry, refused };
    void run();
    Attempt send(std::string_view body);  // one attempt
    std::vector<SpanData> take_batch();   // under the lock: the oldest spans, up to a batch
    void deliver(const std::vector<SpanData>& batch);
    void count_dropped(std::size_t spans, const char* reason);

    const ExporterSettings settings_;
    std::unique_ptr<Http> http_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;      // the worker: a batch is full, a flush, the end
    std::condition_variable progress_;  // flush(): the queue went out
    std::vector<SpanData> queue_;
    ProtobufWriter encoded_;       // the worker's: each batch's protobuf body, in one reused buffer
    std::vector<SpanData> spare_;  // the last batch's room, emptied, for the queue to reuse
    bool sending_ = false;
    bool stopping_ = false;
    int flushing_ = 0;  // flush() calls waiting
    std::chrono::steady_clock::time_point flush_deadline_{};
    std::uint64_t exported_ = 0;
    std::uint64_t dropped_ = 0;
    std::stop_source cancel_;  // the export in flight, when the exporter goes
    std::thread worker_;
};

}  // namespace mcp::telemetry
