#pragma once
// The spans of a 2025 GET stream's connection, the standalone stream or a resumption with
// Last-Event-ID (docs/adr/0030-tracing.md, decision 12): a SERVER span `GET stream` with an event
// per message sent, ended and followed by a linked one every TracingOptions::stream_span_events
// events or stream_span_lifetime, whichever comes first. A resumption links to the last span of the
// stream it resumes when this node recorded it. Nothing is allocated for a connection not sampled.
#include "telemetry/span.hpp"

#include <mcp/telemetry/tracing_options.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {
struct TraceContext;
}
namespace mcp::telemetry {
class Tracer;
}

namespace mcp::detail {

// The latest span of each traced stream this node served, by session and stream, for the
// resumptions that come back to it. Bounded: past kMaxStreams the oldest are forgotten.
class StreamSpanIndex {
public:
    static constexpr std::size_t kMaxStreams = 4096;

    void remember(const std::string& session_id, const std::string& stream_id, const telemetry::Link& span);
    std::optional<telemetry::Link> find(const std::string& session_id, const std::string& stream_id) const;

private:
    mutable std::mutex mutex_;
    std::map<std::string, telemetry::Link> spans_;
    std::deque<std::string> order_;  // keys, oldest first
};

class StreamSpan {
public:
    // What the connection serves; copied only when it is traced.
    struct Stream {
        std::string_view session_id;
        std::string_view stream_id;
        std::string_view protocol_version;
        bool resumed = false;  // a Last-Event-ID named it
    };

    // Null, and nothing allocated, when tracing is off or the request (its traceparent, else a new
    // trace) is not sampled.
    static std::unique_ptr<StreamSpan> start(telemetry::Tracer* tracer, const telemetry::TracingOptions& options,
                                             const TraceContext& trace, const Stream& stream, StreamSpanIndex& index);
    ~StreamSpan();  // finish()
    StreamSpan(const StreamSpan&) = delete;
    StreamSpan& operator=(const StreamSpan&) = delete;

    // A message went out under its sealed event id. Thread-safe; nothing once finished.
    void sent(std::string_view data, std::string_view event_id);
    // The connection ended: its current span ends. Thread-safe; once.
    void finish();

private:
    StreamSpan(telemetry::Tracer& tracer, const telemetry::TracingOptions& options, const Stream& stream,
               StreamSpanIndex& index);
    void begin(std::optional<telemetry::Link> before);  // mutex_ held
    void end();                                         // mutex_ held

    telemetry::Tracer& tracer_;
    const std::size_t max_events_;
    const std::uint64_t max_age_nano_;
    const std::string session_id_;
    const std::string stream_id_;
    const std::string protocol_version_;
    const bool resumed_;
    StreamSpanIndex& index_;

    std::mutex mutex_;
    telemetry::SpanData span_;  // the current part
    std::size_t events_ = 0;    // sent in the current part
    std::int64_t part_ = 0;
    bool finished_ = false;
};

// "response", or the method of a JSON-RPC message's text; "" for what is neither.
std::string message_kind(std::string_view data);

}  // namespace mcp::detail
