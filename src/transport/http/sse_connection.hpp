#pragma once
// A resumable stream's connection over HTTP: its events framed as Server-Sent Events into the
// response's Outbox, and recorded in the span of a traced GET stream.
#include "net/sse_writer.hpp"
#include "sessions/resumable_stream.hpp"
#include "transport/http/outbox.hpp"
#include "transport/http/stream_span.hpp"

#include <memory>

namespace mcp::detail {

class SseConnection final : public StreamConnection {
public:
    // `span`: a traced GET stream's, null otherwise.
    SseConnection(std::shared_ptr<Outbox> outbox, long retry_ms, std::unique_ptr<StreamSpan> span = nullptr)
        : outbox_(std::move(outbox)), retry_ms_(retry_ms), span_(std::move(span)) {}

    bool event(std::string_view data, std::string_view event_id) override {
        if (!outbox_->push(net::sse_event(data, event_id))) return false;
        if (span_) span_->sent(data, event_id);
        return true;
    }
    // The connection's response ended: so does its span.
    void end_span() {
        if (span_) span_->finish();
    }
    void prime(std::string_view event_id) override { outbox_->push(net::sse_priming(event_id, retry_ms_)); }
    void finish() override { outbox_->finish(); }
    bool detached() override { return outbox_->detached(); }

private:
    std::shared_ptr<Outbox> outbox_;
    const long retry_ms_;
    std::unique_ptr<StreamSpan> span_;
};

}  // namespace mcp::detail
