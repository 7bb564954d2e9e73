#pragma once
// A resumable stream's connection over HTTP: its events framed as Server-Sent Events into the
// response's Outbox.
#include "net/sse_writer.hpp"
#include "sessions/resumable_stream.hpp"
#include "transport/http/outbox.hpp"

#include <memory>

namespace mcp::detail {

class SseConnection final : public StreamConnection {
public:
    SseConnection(std::shared_ptr<Outbox> outbox, long retry_ms) : outbox_(std::move(outbox)), retry_ms_(retry_ms) {}

    bool event(std::string_view data, std::string_view event_id) override {
        return outbox_->push(net::sse_event(data, event_id));
    }
    void prime(std::string_view event_id) override { outbox_->push(net::sse_priming(event_id, retry_ms_)); }
    void finish() override { outbox_->finish(); }
    bool detached() override { return outbox_->detached(); }

private:
    std::shared_ptr<Outbox> outbox_;
    const long retry_ms_;
};

}  // namespace mcp::detail
