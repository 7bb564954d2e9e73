#include "client/http/http_core.hpp"

#include "client/auth/challenge.hpp"
#include "client/http/request_headers.hpp"
#include "client/negotiation.hpp"
#include "net/http_error.hpp"
#include "net/url.hpp"
#include "util/ascii.hpp"
#include "util/log.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <stdexcept>

namespace mcp::detail {

namespace asio = boost::asio;

namespace {

// A server's retry: below this counts as this, so that a server that ends every stream at once
// cannot make the client spin.
constexpr std::chrono::milliseconds kMinReconnectDelay{100};

std::string key_of(const boost::json::value& id) { return boost::json::serialize(id); }

}  // namespace

HttpCore::HttpCore(HttpServerParams params, Mode mode)
    : params_(std::move(params)), mode_(mode), switched_(mode == Mode::legacy_sse) {
    if (!net::parse_url(params_.url)) throw std::invalid_argument("not an http(s) URL: \"" + params_.url + "\"");
    check_custom_headers(params_.headers);
    if (params_.oauth) {
        for (const auto& [name, value] : params_.headers) {
            if (ascii_iequals(name, "Authorization"))
                throw std::invalid_argument("an HTTP transport with OAuth sets Authorization itself");
        }
        auth_ = std::make_shared<Authorizer>(*params_.oauth, params_.url, params_.http);
    }
}

HttpCore::~HttpCore() = default;

void HttpCore::open(asio::io_context& io, TransportEvents events) {
    std::lock_guard lock(mutex_);
    if (strand_ || reported_) throw std::logic_error("an HTTP transport may be opened once");
    http_ = std::make_unique<net::HttpClient>(io, params_.http);
    events_ = std::move(events);
    strand_.emplace(asio::make_strand(io.get_executor()));
    if (mode_ == Mode::legacy_sse) asio::post(*strand_, [self = shared_from_this()] { self->start_legacy(); });
}

template <class Work>
bool HttpCore::on_strand(Work work) {
    std::lock_guard lock(mutex_);
    if (!strand_) return false;
    asio::post(*strand_, [self = shared_from_this(), work = std::move(work)]() mutable { work(*self); });
    return true;
}

void HttpCore::send(OutboundMessage message) {
    auto f = std::make_shared<InFlight>();
    f->message = std::move(message);
    f->modern = is_modern_version(f->message.protocol_version);
    modern_ = f->modern;
    {
        std::lock_guard lock(mutex_);
        // Registered before anything is sent, so that cancel() finds it at once.
        if (strand_ && !closing_ && f->is_request()) requests_[key_of(f->message.id)] = f;
    }
    if (!on_strand([f](HttpCore& self) { self.dispatch(f); }) && f->message.failed)
        f->message.failed({"the transport is not open", 0, {}});
}

bool HttpCore::cancel(const boost::json::value& id) {
    Ptr f;
    {
        std::lock_guard lock(mutex_);
        if (auto it = requests_.find(key_of(id)); it != requests_.end()) {
            f = std::move(it->second);
            requests_.erase(it);
        }
    }
    if (!f) return modern_;
    f->stop.request_stop();  // outside the lock: the stop callbacks run here
    return f->modern;
}

void HttpCore::answered(const boost::json::value& id) {
    std::lock_guard lock(mutex_);
    if (auto it = requests_.find(key_of(id)); it != requests_.end()) it->second->answered = true;
}

bool HttpCore::switch_to_legacy_sse() {
    {
        std::lock_guard lock(mutex_);
        if (!strand_ || closing_ || switched_) return false;
        switched_ = true;
    }
    modern_ = false;
    // Posted: the messages the client sends after this one go the new way.
    return on_strand([](HttpCore& self) { self.start_legacy(); });
}

void HttpCore::close() {
    on_strand([](HttpCore& self) { self.begin_close("the client closed the connection"); });
}

std::string HttpCore::session_id() const {
    std::lock_guard lock(mutex_);
    return session_id_;
}

// ---- On the strand.

void HttpCore::dispatch(const Ptr& f) {
    if (ending_) return fail(f, {"the transport is closed: " + reason_, 0, {}});
    if (f->stop.stop_requested()) return finish(f);  // cancelled before it left
    if (mode_ == Mode::legacy_sse) {
        if (legacy_.endpoint.empty()) return legacy_.waiting.push_back(f);
        return spawn(post_legacy(f));
    }
    if (!f->modern && (session_.renewing || (session_.opening_stream && f->is_request())))
        return session_.held.push_back(f);
    if (!f->modern && mode_ == Mode::streamable && f->message.method == "notifications/initialized") {
        session_.opening_stream = true;
        spawn(stop_waiting_for_stream());
    }
    spawn(post(f));
}

void HttpCore::finish(const Ptr& f) {
    if (!f->is_request()) return;
    std::lock_guard lock(mutex_);
    if (auto it = requests_.find(key_of(f->message.id)); it != requests_.end() && it->second == f) requests_.erase(it);
}

void HttpCore::fail(const Ptr& f, const TransportFailure& failure) {
    finish(f);
    if (f->message.failed) f->message.failed(failure);
}

void HttpCore::deliver(std::string_view text) {
    if (!reported_) events_.message(text);
}

void HttpCore::begin_close(std::string reason) {
    if (auth_) auth_->cancel();  // an authorization under way ends: nobody waits for it
    if (ending_) return;
    ending_ = true;
    reason_ = std::move(reason);
    std::unordered_map<std::string, Ptr> stopping;
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
        stopping.swap(requests_);
    }
    for (auto& [id, f] : stopping) f->stop.request_stop();
    closing_stop_.request_stop();
    session_.stream_stop.request_stop();
    legacy_.named.request_stop();
    // What waited is the client's to fail: `closed` does it.
    session_.held.clear();
    legacy_.waiting.clear();
    if (mode_ == Mode::streamable && !session_.id.empty()) spawn(end_session(session_.id, session_.version));
    maybe_report();
}

// `closed` once every coroutine has ended: nothing of the transport runs on the context after it.
void HttpCore::maybe_report() {
    if (!ending_ || running_ > 0 || reported_) return;
    http_.reset();  // kept connections close
    {
        // The strand goes too: the transport may outlive the context (an application keeps it).
        std::lock_guard lock(mutex_);
        reported_ = true;
        strand_.reset();
    }
    if (events_.closed) events_.closed(reason_);
}

void HttpCore::spawn(asio::awaitable<void> work) {
    ++running_;
    asio::co_spawn(*strand_, std::move(work),
                   asio::bind_executor(*strand_, [self = shared_from_this()](const std::exception_ptr& error) {
                       if (error) {
                           try {
                               std::rethrow_exception(error);
                           } catch (const std::exception& e) {
                               log().error("client: the HTTP transport's work failed: {}", e.what());
                           }
                       }
                       --self->running_;
                       self->maybe_report();
                   }));
}

asio::awaitable<void> HttpCore::pause(std::chrono::milliseconds delay, std::stop_token stop) {
    auto timer = std::make_shared<asio::steady_timer>(*strand_, delay);
    std::stop_callback wake(stop, [timer, strand = *strand_] { asio::post(strand, [timer] { timer->cancel(); }); });
    co_await timer->async_wait(asio::as_tuple(asio::use_awaitable));
}

std::chrono::milliseconds HttpCore::reconnect_delay(const SseCursor& cursor) const {
    return std::clamp(cursor.retry.value_or(params_.reconnect_delay), kMinReconnectDelay,
                      std::max(params_.max_reconnect_delay, kMinReconnectDelay));
}

net::HttpRequest HttpCore::short_post(std::string url, net::HttpHeaders headers, std::string body,
                                      std::size_t max_body) const {
    net::HttpRequest request;
    request.method = "POST";
    request.url = std::move(url);
    request.headers = std::move(headers);
    request.body = std::move(body);
    request.max_body_bytes = max_body;
    request.stop = closing_stop_.get_token();
    return request;
}

std::string HttpCore::authorize(net::HttpRequest& request) const {
    if (!auth_ || !auth_->covers(request.url)) return {};
    return auth_->present(request);
}

std::vector<std::string> HttpCore::challenges(const net::HttpHeaders& headers) {
    std::vector<std::string> out;
    for (const auto value : headers.get_all("WWW-Authenticate")) out.emplace_back(value);
    return out;
}

bool HttpCore::calls_for_authorization(unsigned status, const net::HttpHeaders& headers, const std::string& url,
                                       int tries) const {
    if (!auth_ || !auth_->covers(url) || tries >= params_.oauth->max_authorizations_per_request) return false;
    if (status == 401) return true;
    if (status != 403) return false;
    const auto values = headers.get_all("WWW-Authenticate");
    const auto challenge = bearer_challenge({values.begin(), values.end()});
    return challenge && challenge->error == "insufficient_scope";
}

// With OAuth, a request refused for want of authorization goes again once the authorizer has a
// token for it; without, once.
asio::awaitable<HttpCore::Fetched> HttpCore::fetch(net::HttpRequest request) {
    Fetched out;
    for (int tries = 0;; ++tries) {
        std::optional<net::HttpRequest> again;
        if (auth_) again = request;
        const auto sent = authorize(request);
        try {
            out.response = co_await http_->fetch(std::move(request));
        } catch (const net::HttpError& e) {
            out.error = e.what();
            co_return out;
        }
        if (again && auth_->covers(again->url) && auth_->take_nonce(out.response.status, out.response.headers) &&
            tries < params_.oauth->max_authorizations_per_request) {
            request = std::move(*again);  // the server's DPoP nonce, in a fresh proof
            continue;
        }
        if (!again || !calls_for_authorization(out.response.status, out.response.headers, again->url, tries))
            co_return out;
        // Named: GCC 12 frees some temporaries of a co_await expression twice.
        auto refused = challenges(out.response.headers);
        const auto status = out.response.status;
        const auto outcome = co_await auth_->renew(status, std::move(refused), sent);
        if (!outcome.ok) {
            out.error = outcome.error;
            co_return out;
        }
        request = std::move(*again);
    }
}

asio::awaitable<HttpCore::Opened> HttpCore::open_stream(net::HttpRequest request) {
    Opened out;
    for (int tries = 0;; ++tries) {
        std::optional<net::HttpRequest> again;
        if (auth_) again = request;
        const auto sent = authorize(request);
        try {
            out.stream = std::make_shared<net::HttpStream>(co_await http_->open(std::move(request)));
        } catch (const net::HttpError& e) {
            out.error = e.what();
            co_return out;
        }
        if (again && auth_->covers(again->url) && auth_->take_nonce(out.stream->status(), out.stream->headers()) &&
            tries < params_.oauth->max_authorizations_per_request) {
            out.stream->cancel();
            out.stream.reset();
            request = std::move(*again);  // the server's DPoP nonce, in a fresh proof
            continue;
        }
        if (!again || !calls_for_authorization(out.stream->status(), out.stream->headers(), again->url, tries))
            co_return out;
        const auto status = out.stream->status();
        auto refused = challenges(out.stream->headers());
        out.stream->cancel();
        out.stream.reset();
        const auto outcome = co_await auth_->renew(status, std::move(refused), sent);
        if (!outcome.ok) {
            out.error = outcome.error;
            co_return out;
        }
        request = std::move(*again);
    }
}

}  // namespace mcp::detail
