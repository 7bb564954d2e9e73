#pragma once
// The CallSink of one POST: answers with application/json when the response is the only message,
// and switches to text/event-stream as soon as a notification comes first (lazy SSE). 2025-era
// streams are resumable (sealed event ids, journaled); 2026-era streams are plain.
#include "sessions/resumable_session.hpp"
#include "transport/http/outbox.hpp"

#include <mcp/protocol/revision.hpp>
#include <mcp/server/interceptor.hpp>
#include <mcp/server/sink.hpp>

#include <memory>
#include <mutex>

namespace mcp::detail {

class BearerAuth;

// The HTTP status of a JSON-RPC response sent as application/json.
unsigned status_of(const boost::json::value& response, Era era);

class ResponseStream final : public CallSink {
public:
    // `session` is the 2025-era session whose streams are resumable; null for 2026 requests.
    // `retry_ms` is the reconnection hint of its priming events. `bearer`, when the endpoint checks
    // bearer tokens, words the challenge of an insufficient_scope refusal. `outbox` is handed on
    // (to a resumable stream's connection) only with a session: without one it need not own what it
    // points to (make_stateless_response).
    ResponseStream(Era era, std::shared_ptr<Outbox> outbox, std::shared_ptr<ResumableSession> session, long retry_ms,
                   const BearerAuth* bearer = nullptr);

    bool send(boost::json::value message) override;
    void complete(std::optional<boost::json::value> response) override;
    bool takes_text() const override { return true; }
    void complete_text(std::string response) override;
    void complete_overloaded(boost::json::value response) override;
    void complete_refused(const Refusal& refusal, boost::json::value response) override;
    bool release_stream() override;

private:
    // Commits the response to text/event-stream (mutex_ held).
    void begin_stream();
    void deliver(const boost::json::value& message);  // mutex_ held, stream begun
    void deliver_text(const std::string& message);    // the same, for a message written as text
    void finish_stream();                             // mutex_ held, stream begun, last message sent
    void complete_with_status(unsigned status, HeaderList headers, const boost::json::value& response);

    const Era era_;
    std::shared_ptr<Outbox> outbox_;
    std::shared_ptr<ResumableSession> session_;
    const long retry_ms_;
    const BearerAuth* bearer_;

    std::mutex mutex_;
    bool streaming_ = false;
    bool done_ = false;
    std::shared_ptr<ResumableStream> sse_;  // 2025: the resumable stream behind this response
};

// A 2026-07-28 response's stream and outbox, made in one allocation: either pointer keeps both.
struct StatelessResponse {
    std::shared_ptr<Outbox> outbox;
    std::shared_ptr<ResponseStream> stream;
};
StatelessResponse make_stateless_response(std::size_t max_pending_bytes, long retry_ms, const BearerAuth* bearer);

}  // namespace mcp::detail
