#include "transport/http/stream_span.hpp"

#include "telemetry/ids.hpp"
#include "telemetry/sampler.hpp"
#include "telemetry/traceparent.hpp"
#include "telemetry/tracer.hpp"

#include <mcp/server/request_context.hpp>

#include <boost/json/parse.hpp>

namespace mcp::detail {

namespace {

std::string index_key(const std::string& session_id, const std::string& stream_id) {
    return session_id + '\n' + stream_id;
}

}  // namespace

void StreamSpanIndex::remember(const std::string& session_id, const std::string& stream_id,
                               const telemetry::Link& span) {
    auto key = index_key(session_id, stream_id);
    const std::lock_guard lock(mutex_);
    if (auto [it, added] = spans_.try_emplace(key, span); !added) {
        it->second = span;
        return;
    }
    order_.push_back(std::move(key));
    if (order_.size() > kMaxStreams) {
        spans_.erase(order_.front());
        order_.pop_front();
    }
}

std::optional<telemetry::Link> StreamSpanIndex::find(const std::string& session_id,
                                                     const std::string& stream_id) const {
    const std::lock_guard lock(mutex_);
    const auto it = spans_.find(index_key(session_id, stream_id));
    if (it == spans_.end()) return std::nullopt;
    return it->second;
}

std::unique_ptr<StreamSpan> StreamSpan::start(telemetry::Tracer* tracer, const telemetry::TracingOptions& options,
                                              const TraceContext& trace, const Stream& stream, StreamSpanIndex& index) {
    if (tracer == nullptr) return nullptr;
    const auto parent = telemetry::parse_traceparent(trace.traceparent);
    const auto trace_id = parent ? parent->trace_id : telemetry::random_trace_id();
    const auto parent_sampled = parent ? std::optional<bool>((parent->flags & 1) != 0) : std::nullopt;
    if (!telemetry::should_sample(tracer->sampler(), parent_sampled, trace_id)) return nullptr;

    std::unique_ptr<StreamSpan> span(new StreamSpan(*tracer, options, stream, index));
    const auto resumes = stream.resumed ? index.find(span->session_id_, span->stream_id_) : std::nullopt;
    span->span_.trace_id = trace_id;
    if (parent) {
        span->span_.parent_span_id = parent->parent_id;
        span->span_.parent_remote = true;
        span->span_.trace_state = trace.tracestate;
    }
    const std::lock_guard lock(span->mutex_);
    span->begin(resumes);
    return span;
}

StreamSpan::StreamSpan(telemetry::Tracer& tracer, const telemetry::TracingOptions& options, const Stream& stream,
                       StreamSpanIndex& index)
    : tracer_(tracer),
      max_events_(options.stream_span_events),
      max_age_nano_(static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(options.stream_span_lifetime).count())),
      session_id_(stream.session_id),
      stream_id_(stream.stream_id),
      protocol_version_(stream.protocol_version),
      resumed_(stream.resumed),
      index_(index) {}

StreamSpan::~StreamSpan() { finish(); }

void StreamSpan::finish() {
    const std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    end();
}

void StreamSpan::sent(std::string_view data, std::string_view event_id) {
    const std::lock_guard lock(mutex_);
    if (finished_) return;
    if (events_ >= max_events_ || telemetry::now_unix_nano() - span_.start_unix_nano >= max_age_nano_) {
        const telemetry::Link before{span_.trace_id, span_.span_id};
        end();
        begin(before);
    }
    ++events_;
    auto kind = message_kind(data);
    span_.add_event(kind.empty() ? "message" : std::move(kind), {{"mcp.sse.event_id", std::string(event_id)}});
}

// A part's span: the same trace and parent as the one before it (its link), or the resumed stream's.
void StreamSpan::begin(std::optional<telemetry::Link> before) {
    span_.span_id = telemetry::random_span_id();
    span_.name = "GET stream";
    span_.kind = telemetry::SpanKind::server;
    span_.start_unix_nano = telemetry::now_unix_nano();
    span_.attributes.clear();
    span_.events.clear();
    span_.links.clear();
    span_.dropped_attributes = span_.dropped_events = span_.dropped_links = 0;
    span_.set("mcp.session.id", session_id_);
    if (!protocol_version_.empty()) span_.set("mcp.protocol.version", protocol_version_);
    span_.set("mcp.stream.id", stream_id_);
    span_.set("mcp.stream.part", ++part_);
    if (resumed_) span_.set("mcp.stream.resumed", true);
    if (before) span_.add_link(*before);
    events_ = 0;
    index_.remember(session_id_, stream_id_, {span_.trace_id, span_.span_id});
}

void StreamSpan::end() {
    span_.end_unix_nano = telemetry::now_unix_nano();
    tracer_.export_span(span_);
}

std::string message_kind(std::string_view data) {
    boost::system::error_code ec;
    const auto message = boost::json::parse(data, ec);
    if (ec || !message.is_object()) return {};
    const auto& object = message.get_object();
    if (const auto* method = object.if_contains("method"); method != nullptr && method->is_string())
        return std::string(method->get_string());
    if (object.contains("result") || object.contains("error")) return "response";
    return {};
}

}  // namespace mcp::detail
