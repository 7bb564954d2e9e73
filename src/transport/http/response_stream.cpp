#include "transport/http/response_stream.hpp"

#include "json/text_writer.hpp"
#include "net/sse_writer.hpp"
#include "transport/http/bearer_auth.hpp"
#include "transport/http/sse_connection.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/server/interceptor.hpp>

namespace mcp::detail {

unsigned status_of(const boost::json::value& response, Era era) {
    const auto* error = response.as_object().if_contains("error");
    if (error == nullptr) return 200;
    const auto code = error->as_object().at("code").to_number<std::int64_t>();
    if (code == error_code::parse_error || code == error_code::invalid_request) return 400;
    if (era == Era::sessions) return 200;
    switch (code) {
        case error_code::invalid_params:
        case error_code::header_mismatch:
        case error_code::missing_required_client_capability:
        case error_code::unsupported_protocol_version: return 400;
        case error_code::method_not_found: return 404;
        default: return 200;
    }
}

ResponseStream::ResponseStream(Era era, std::shared_ptr<Outbox> outbox, std::shared_ptr<ResumableSession> session,
                               long retry_ms, const BearerAuth* bearer)
    : era_(era), outbox_(std::move(outbox)), session_(std::move(session)), retry_ms_(retry_ms), bearer_(bearer) {}

void ResponseStream::begin_stream() {
    streaming_ = true;
    outbox_->start({ResponseHead::Kind::event_stream, 200, {}});
    if (session_) {
        sse_ = session_->open_stream();
        sse_->attach(std::make_shared<SseConnection>(outbox_, retry_ms_), {});
        sse_->prime();
    }
}

void ResponseStream::deliver(const boost::json::value& message) { deliver_text(json_text(message)); }

void ResponseStream::deliver_text(const std::string& message) {
    if (sse_)
        sse_->publish_text(message);
    else
        outbox_->push(net::sse_event(message));
}

void ResponseStream::finish_stream() {
    if (sse_)
        session_->finish(*sse_);
    else
        outbox_->finish();
}

bool ResponseStream::send(boost::json::value message) {
    std::lock_guard lock(mutex_);
    if (done_) return false;
    if (!streaming_) begin_stream();
    deliver(message);
    return !outbox_->detached() || sse_ != nullptr;  // a 2025 stream keeps journaling for a resume
}

void ResponseStream::complete(std::optional<boost::json::value> response) {
    std::lock_guard lock(mutex_);
    if (done_) return;
    done_ = true;
    if (streaming_) {
        if (response) deliver(*response);
        finish_stream();
        return;
    }
    if (!response) {
        // A notification or a client's response: 202. A cancelled request: nothing to say.
        outbox_->answer({ResponseHead::Kind::accepted, 202, {}}, {});
    } else {
        outbox_->answer({ResponseHead::Kind::json, status_of(*response, era_), {}}, json_text(*response));
    }
}

void ResponseStream::complete_text(std::string response) {
    std::lock_guard lock(mutex_);
    if (done_) return;
    done_ = true;
    if (streaming_) {
        deliver_text(response);
        finish_stream();
        return;
    }
    outbox_->answer({ResponseHead::Kind::json, 200, {}}, std::move(response));  // a successful response
}

bool ResponseStream::release_stream() {
    std::lock_guard lock(mutex_);
    if (!session_ || done_) return false;  // only 2025 streams can be resumed
    if (!streaming_) begin_stream();       // the priming event gives the client an id to resume from
    sse_->detach_all();                    // the POST's response ends; the stream goes on in the journal
    return true;
}

void ResponseStream::complete_overloaded(boost::json::value response) {
    complete_with_status(503, {{"Retry-After", "1"}}, response);
}

void ResponseStream::complete_refused(const Refusal& refusal, boost::json::value response) {
    HeaderList headers = refusal.headers();
    if (bearer_ != nullptr && !refusal.scopes_needed().empty()) {
        headers.emplace_back("WWW-Authenticate",
                             bearer_->insufficient_scope_challenge(refusal.scopes_needed(), refusal.message()));
    }
    complete_with_status(refusal.http_status(), std::move(headers), response);
}

// Once streaming, the status is sent already: the error goes out as the stream's last event.
void ResponseStream::complete_with_status(unsigned status, HeaderList headers, const boost::json::value& response) {
    std::lock_guard lock(mutex_);
    if (done_) return;
    done_ = true;
    if (streaming_) {
        deliver(response);
        finish_stream();
        return;
    }
    outbox_->answer({ResponseHead::Kind::json, status, std::move(headers)}, json_text(response));
}

namespace {

// The stream's pointer to its sibling outbox does not own it: both go with the block.
struct StatelessBlock {
    StatelessBlock(std::size_t max_pending_bytes, long retry_ms, const BearerAuth* bearer)
        : outbox(max_pending_bytes),
          stream(Era::stateless, std::shared_ptr<Outbox>(std::shared_ptr<void>(), &outbox), nullptr, retry_ms, bearer) {
    }
    Outbox outbox;
    ResponseStream stream;
};

}  // namespace

StatelessResponse make_stateless_response(std::size_t max_pending_bytes, long retry_ms, const BearerAuth* bearer) {
    auto block = std::make_shared<StatelessBlock>(max_pending_bytes, retry_ms, bearer);
    return {std::shared_ptr<Outbox>(block, &block->outbox), std::shared_ptr<ResponseStream>(block, &block->stream)};
}

}  // namespace mcp::detail
