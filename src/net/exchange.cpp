#include "net/exchange.hpp"

#include "net/request_head.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>

namespace mcp::net {

namespace asio = boost::asio;
using Clock = Connection::Clock;

namespace {

// A request the server cannot have acted on twice: worth sending again on a fresh connection
// when a kept one turns out to be closed (RFC 9110 §9.2.2).
bool idempotent(std::string_view method) {
    return method == "GET" || method == "HEAD" || method == "OPTIONS" || method == "PUT" || method == "DELETE" ||
           method == "TRACE";
}

HttpError cancelled_error() { return {HttpErrorKind::cancelled, "the request was cancelled"}; }

}  // namespace

Exchange::Exchange(std::shared_ptr<ClientCore> core, HttpRequest request, Body body)
    : core_(std::move(core)), request_(std::move(request)), body_(body), queue_wake_(core_->strand) {}

Exchange::~Exchange() = default;

ResponseLimits Exchange::limits() const {
    ResponseLimits limits{.max_header_bytes = core_->options.max_header_bytes, .no_body = request_.method == "HEAD"};
    if (body_ == Body::whole) limits.max_body_bytes = request_.max_body_bytes.value_or(core_->options.max_body_bytes);
    return limits;
}

asio::awaitable<void> Exchange::start() {
    const auto url = parse_url(request_.url);
    if (!url) throw HttpError(HttpErrorKind::invalid_request, "not an http or https URL: " + request_.url);
    url_ = *url;
    proxy_ = proxy_for(core_->proxies, url_);
    head_ = request_head(request_, url_, url_.tls ? nullptr : proxy_, core_->options.user_agent);
    deadline_ = Clock::now() + request_.timeout.value_or(core_->options.request_timeout);
    if (request_.stop.stop_requested()) throw cancelled_error();
    if (request_.stop.stop_possible()) {
        on_stop_.emplace(request_.stop, [weak = weak_from_this()] {
            if (auto self = weak.lock()) self->request_cancel();
        });
    }
    co_await wait_for_place();
    connection_ = lease_->take_connection();
    const bool kept = connection_ != nullptr;
    if (!kept) co_await connect();
    bool again = false;
    try {
        co_await send_and_read_head();
    } catch (const HttpError& e) {
        // The server closed a kept connection before this request reached it.
        again =
            kept && e.kind() == HttpErrorKind::connection_closed && bytes_received_ == 0 && idempotent(request_.method);
        if (!again) throw;
    }
    if (again) {
        co_await connect();
        co_await send_and_read_head();
    }
}

asio::awaitable<void> Exchange::wait_for_place() {
    queue_wake_.expires_at(deadline_);
    auto lease = co_await core_->pool.acquire(url_.origin(), queue_wake_);
    if (cancelled_) throw cancelled_error();
    if (!lease || Clock::now() >= deadline_) {
        throw HttpError(HttpErrorKind::timeout, "timed out waiting for a connection to " + url_.origin());
    }
    lease_.emplace(std::move(*lease));
}

asio::awaitable<void> Exchange::connect() {
    // Made before it connects, so that cancel() reaches it while it does.
    connection_ = std::make_unique<Connection>(core_->strand, core_->tls, core_->options.tls.verify);
    connection_->expires_at(std::min(deadline_, Clock::now() + core_->options.connect_timeout));
    co_await connection_->connect(url_, proxy_, core_->options.max_header_bytes);
}

asio::awaitable<void> Exchange::send_and_read_head() {
    if (cancelled_) throw cancelled_error();
    reader_ = std::make_unique<ResponseReader>(limits());
    bytes_received_ = 0;
    connection_->expires_at(deadline_);
    co_await connection_->write(head_, request_.body);
    while (!reader_->head_done()) co_await read_more();
}

asio::awaitable<void> Exchange::read_more() {
    const auto n = co_await connection_->read_some(buffer_);
    bytes_received_ += n;
    if (n == 0) {
        reader_->feed_eof();
    } else {
        reader_->feed({buffer_.data(), n});
    }
}

asio::awaitable<std::optional<std::string>> Exchange::next_chunk() {
    if (failure_) throw *failure_;
    try {
        for (;;) {
            if (cancelled_) throw cancelled_error();
            auto bytes = reader_->take_body();
            if (!bytes.empty()) co_return bytes;
            if (reader_->done()) {
                finish();
                co_return std::nullopt;
            }
            if (body_ == Body::whole) {
                connection_->expires_at(deadline_);
            } else if (core_->options.stream_idle_timeout.count() > 0) {
                connection_->expires_at(Clock::now() + core_->options.stream_idle_timeout);
            } else {
                connection_->expires_never();
            }
            co_await read_more();
        }
    } catch (const HttpError& e) {
        failure_ = e;
        abandon();
        throw;
    }
}

asio::awaitable<std::string> Exchange::read_all(std::size_t max_bytes) {
    std::string body;
    while (auto chunk = co_await next_chunk()) {
        if (chunk->size() > max_bytes - body.size()) {
            failure_ = HttpError(HttpErrorKind::body_too_large,
                                 "the response's body is over " + std::to_string(max_bytes) + " bytes");
            abandon();
            throw *failure_;
        }
        body += *chunk;
    }
    co_return body;
}

void Exchange::finish() {
    if (connection_ && reader_->reusable() && !cancelled_) lease_->keep(std::move(connection_));
    abandon();
}

void Exchange::abandon() {
    connection_.reset();
    lease_.reset();
}

void Exchange::cancel() {
    cancelled_ = true;
    queue_wake_.cancel();
    if (connection_) connection_->cancel();
}

void Exchange::request_cancel() {
    asio::post(core_->strand, [weak = weak_from_this()] {
        if (auto self = weak.lock()) self->cancel();
    });
}

}  // namespace mcp::net
