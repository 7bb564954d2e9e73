#include "client/peer.hpp"

#include "client/envelope.hpp"
#include "protocol/methods.hpp"
#include "protocol/plain_result.hpp"
#include "util/log.hpp"

#include <mcp/client/errors.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <bit>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;

// How often requests in flight are checked against their deadlines.
constexpr std::chrono::milliseconds kSweepPeriod{50};

// Counted always, logged at 1, 2, 4, 8… so that a flood cannot flood the log.
bool worth_logging(std::uint64_t count) { return std::has_single_bit(count); }

std::exception_ptr error_of(const boost::json::object& error) {
    const auto* code = error.if_contains("code");
    const auto* message = error.if_contains("message");
    if (code == nullptr || !code->is_int64() || message == nullptr || !message->is_string())
        return std::make_exception_ptr(ProtocolViolation("an error response without an integer code and a message"));
    const auto* data = error.if_contains("data");
    const auto n = static_cast<int>(code->get_int64());
    std::string text(message->get_string());
    if (n == error_code::invalid_params)
        return std::make_exception_ptr(InvalidParams(std::move(text), data != nullptr ? *data : nullptr));
    return std::make_exception_ptr(Error(n, std::move(text), data != nullptr ? *data : nullptr));
}

// The message in `text`, classified; what it points into is put in `document` (constructed there,
// so that it keeps its arena).
std::variant<jsonrpc::Message, jsonrpc::Failure> read_message(std::string_view text, const jsonrpc::Limits& limits,
                                                              std::optional<boost::json::value>& document) {
    auto parsed = jsonrpc::parse(text, limits);
    if (auto* failure = std::get_if<jsonrpc::Failure>(&parsed)) return std::move(*failure);
    document.emplace(std::move(std::get<boost::json::value>(parsed)));
    return jsonrpc::classify(*document);
}

// The result moves out of the parsed document: it keeps the document's arena, and nothing is copied.
Outcome outcome_of(const jsonrpc::Message& response, boost::json::value& document) {
    if (response.error != nullptr) return {nullptr, error_of(*response.error)};
    return {std::move(document.as_object()["result"]), nullptr};
}

}  // namespace

Outcome outcome_of_reply(std::string_view text, const jsonrpc::Limits& limits) {
    std::optional<boost::json::value> document;
    const auto classified = read_message(text, limits, document);
    const auto* failure = std::get_if<jsonrpc::Failure>(&classified);
    if (failure == nullptr && std::get<jsonrpc::Message>(classified).kind == jsonrpc::Kind::response)
        return outcome_of(std::get<jsonrpc::Message>(classified), *document);
    return {nullptr, std::make_exception_ptr(ProtocolViolation(
                         "a malformed response: " + (failure != nullptr ? failure->message : "not a response")))};
}

struct Peer::Pending {
    std::int64_t id = 0;
    std::weak_ptr<Peer> peer;
    Completion done;
    bool reply_as_text = false;
    std::function<void(const boost::json::object&)> on_progress;
    std::chrono::milliseconds timeout{0};
    Clock::time_point last_activity;
    Clock::time_point latest;  // the deadline progress cannot move
    // Destroyed outside the peer's lock only: its destructor waits for a callback running elsewhere.
    std::unique_ptr<std::stop_callback<std::function<void()>>> on_stop;

    bool expired(Clock::time_point now) const {
        if (timeout.count() == 0) return false;
        return now >= std::min(last_activity + timeout, latest);
    }
};

struct Peer::Sweeper {
    explicit Sweeper(boost::asio::io_context& io) : timer(io) {}
    boost::asio::steady_timer timer;
};

Peer::Peer(std::shared_ptr<ClientTransport> transport, boost::asio::io_context& io, PeerOptions options,
           PeerHandlers handlers)
    : transport_(std::move(transport)),
      io_(io),
      options_(options),
      handlers_(std::move(handlers)),
      sweeper_(std::make_unique<Sweeper>(io)) {}

Peer::~Peer() = default;

void Peer::open() {
    std::weak_ptr<Peer> weak = weak_from_this();
    transport_->open(io_, TransportEvents{
                              .message =
                                  [weak](std::string_view text) {
                                      if (auto self = weak.lock()) self->on_message(text);
                                  },
                              .diagnostic =
                                  [weak](std::string_view line) {
                                      if (auto self = weak.lock(); self && self->handlers_.diagnostic)
                                          self->handlers_.diagnostic(line);
                                  },
                              .closed =
                                  [weak](const std::string& reason) {
                                      if (auto self = weak.lock()) self->on_closed(reason);
                                  },
                          });
}

void Peer::request(std::string_view method, const boost::json::object& params, RequestSpec spec, Completion done) {
    if (spec.stop.stop_requested()) {  // cancelled before it was sent: the server never hears of it
        done({nullptr, std::make_exception_ptr(Cancelled())});
        return;
    }
    const auto id = spec.id ? *spec.id : reserve_id();
    auto pending = std::make_shared<Pending>();
    pending->id = id;
    pending->peer = weak_from_this();
    pending->done = std::move(done);
    pending->reply_as_text = spec.reply_as_text;
    pending->on_progress = std::move(spec.on_progress);
    pending->timeout = spec.timeout;
    pending->last_activity = Clock::now();
    pending->latest = pending->last_activity + std::max(spec.timeout, spec.max_total);
    const boost::json::object* sent = &params;
    boost::json::object with_token;  // only a request that asks for progress is copied
    if (pending->on_progress) {
        with_token = params;
        auto& meta = with_token["_meta"];
        if (!meta.is_object()) meta = boost::json::object();
        meta.as_object()["progressToken"] = id;
        sent = &with_token;
    }

    OutboundMessage out;
    out.kind = OutboundMessage::Kind::request;
    out.id = id;
    out.method = std::string(method);
    if (transport_->mirrors_headers()) {
        if (const auto* info = find_method_info(method); info != nullptr && !info->entity_param.empty()) {
            if (const auto* name = params.if_contains(info->entity_param); name != nullptr && name->is_string())
                out.name = std::string(name->get_string());
        }
        out.params = std::move(spec.param_headers);
    }
    out.protocol_version = std::move(spec.protocol_version);
    out.text = request_text(id, method, *sent, spec.envelope ? *spec.envelope : std::string_view(), spec.trace);
    // Holds the request alone, which a std::function keeps without an allocation of its own.
    out.failed = [request = std::weak_ptr<Pending>(pending)](const TransportFailure& failure) {
        const auto p = request.lock();
        const auto self = p ? p->peer.lock() : nullptr;
        if (!self) return;
        if (auto taken = self->take(p->id))
            self->settle(
                taken,
                {nullptr, std::make_exception_ptr(TransportError(failure.message, failure.http_status, failure.body))});
    };

    {
        std::unique_lock lock(mutex_);
        if (closed_) {
            const auto reason = closed_reason_;
            lock.unlock();
            pending->done({nullptr, std::make_exception_ptr(ConnectionClosed(reason))});
            return;
        }
        pending_.emplace(id, pending);
    }
    if (spec.timeout.count() > 0) arm_sweeper();
    transport_->send(std::move(out));
    if (spec.stop.stop_possible()) {
        std::weak_ptr<Peer> weak = weak_from_this();
        // Constructed after the request is in the table: a token stopped already cancels it at once.
        auto on_stop = std::make_unique<std::stop_callback<std::function<void()>>>(
            spec.stop, std::function<void()>([weak, id] {
                if (auto self = weak.lock())
                    self->abandon(id, std::make_exception_ptr(Cancelled()), "the client cancelled the request");
            }));
        {
            std::lock_guard lock(mutex_);
            if (pending_.contains(id)) pending->on_stop = std::move(on_stop);
        }
        // A request settled meanwhile drops the callback here, outside the lock: its destructor
        // waits for a callback running on another thread, which may need the lock.
    }
}

void Peer::notify(std::string_view method, boost::json::object params) {
    OutboundMessage out;
    out.kind = OutboundMessage::Kind::notification;
    out.method = std::string(method);
    out.protocol_version = version();
    out.text = boost::json::serialize(jsonrpc::make_notification(method, std::move(params)));
    send(std::move(out));
}

void Peer::respond(const boost::json::value& id, boost::json::value result) {
    {
        std::lock_guard lock(mutex_);
        auto it = server_requests_.find(boost::json::serialize(id));
        if (it == server_requests_.end()) return;
        const bool cancelled = it->second;
        server_requests_.erase(it);
        if (cancelled) return;  // the server said it waits no more: it expects no answer
    }
    OutboundMessage out;
    out.kind = OutboundMessage::Kind::response;
    out.id = id;
    out.protocol_version = version();
    out.text = boost::json::serialize(jsonrpc::make_result(id, std::move(result)));
    send(std::move(out));
}

void Peer::respond_error(const boost::json::value& id, int code, std::string_view message) {
    {
        std::lock_guard lock(mutex_);
        auto it = server_requests_.find(boost::json::serialize(id));
        if (it == server_requests_.end()) return;
        const bool cancelled = it->second;
        server_requests_.erase(it);
        if (cancelled) return;
    }
    OutboundMessage out;
    out.kind = OutboundMessage::Kind::response;
    out.id = id;
    out.protocol_version = version();
    out.text = boost::json::serialize(jsonrpc::make_error(id, code, message));
    send(std::move(out));
}

void Peer::set_protocol_version(std::string version) {
    std::lock_guard lock(mutex_);
    protocol_version_ = std::move(version);
}

std::string Peer::version() const {
    std::lock_guard lock(mutex_);
    return protocol_version_;
}

void Peer::close(const std::string& reason) {
    fail_all(reason);
    transport_->close();
}

bool Peer::closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
}

ClientStats Peer::stats() const {
    ClientStats s;
    s.malformed_messages = malformed_.load();
    s.unknown_responses = unknown_responses_.load();
    s.refused_server_requests = refused_requests_.load();
    return s;
}

void Peer::send(OutboundMessage message) {
    if (!message.failed) {
        message.failed = [method = message.method](const TransportFailure& failure) {
            log().warn("client: a {} message was not delivered: {}", method.empty() ? "response" : method,
                       printable(failure.message));
        };
    }
    transport_->send(std::move(message));
}

// ---- Inbound.

void Peer::on_message(std::string_view text) {
    // A plain reply to a request that reads its reply from the text goes to it unparsed: its
    // completion reads the result straight into its type (the client's hot path).
    if (text.size() <= options_.limits.max_message_bytes) {
        if (const auto plain = jsonrpc::match_plain_result(text)) {
            if (auto pending = take(plain->id, /*text_readers_only=*/true)) {
                transport_->answered(boost::json::value(plain->id));
                settle(pending, {nullptr, nullptr, text, plain->result});
                return;
            }
        }
    }
    std::optional<boost::json::value> document;
    const auto classified = read_message(text, options_.limits, document);
    if (const auto* failure = std::get_if<jsonrpc::Failure>(&classified)) {
        if (worth_logging(++malformed_))
            log().warn("client: dropped a malformed message from the server ({}): {}", failure->message,
                       printable(text));
        return;
    }
    const auto& message = std::get<jsonrpc::Message>(classified);
    switch (message.kind) {
        case jsonrpc::Kind::response: on_response(message, *document); break;
        case jsonrpc::Kind::request: on_server_request(message); break;
        case jsonrpc::Kind::notification: {
            static const boost::json::object none;
            const auto& params = message.params != nullptr ? *message.params : none;
            if (message.method == "notifications/progress") {
                on_progress(params);
            } else {
                if (message.method == "notifications/cancelled") on_server_cancelled(params);
                if (handlers_.notification) handlers_.notification(message.method, params);
            }
            break;
        }
    }
}

void Peer::on_response(const jsonrpc::Message& message, boost::json::value& document) {
    PendingPtr pending = message.id.is_int64() ? take(message.id.get_int64()) : nullptr;
    if (!pending) {
        if (worth_logging(++unknown_responses_))
            log().warn("client: dropped a response for no request in flight (id {})",
                       printable(boost::json::serialize(message.id)));
        return;
    }
    transport_->answered(message.id);
    settle(pending, outcome_of(message, document));
}

void Peer::on_progress(const boost::json::object& params) {
    const auto* token = params.if_contains("progressToken");
    if (token == nullptr || !token->is_int64()) return;
    std::function<void(const boost::json::object&)> callback;
    {
        std::lock_guard lock(mutex_);
        auto it = pending_.find(token->get_int64());
        if (it == pending_.end()) return;
        it->second->last_activity = Clock::now();
        callback = it->second->on_progress;
    }
    if (callback) callback(params);
}

void Peer::on_server_request(const jsonrpc::Message& message) {
    OutboundMessage out;
    out.kind = OutboundMessage::Kind::response;
    out.id = message.id;
    out.protocol_version = version();
    if (message.method == "ping") {  // no application code: answered here
        out.text = boost::json::serialize(jsonrpc::make_result(message.id, boost::json::object()));
        send(std::move(out));
        return;
    }
    bool accepted = false;
    {
        std::lock_guard lock(mutex_);
        if (server_requests_.size() < options_.max_server_requests)
            accepted = server_requests_.emplace(boost::json::serialize(message.id), false).second;
    }
    if (!accepted) {
        ++refused_requests_;
        out.text = boost::json::serialize(jsonrpc::make_error(
            message.id, error_code::internal_error, "Client overloaded: too many requests from the server at once"));
        send(std::move(out));
        return;
    }
    ServerRequest request{message.id, std::string(message.method),
                          message.params != nullptr ? *message.params : boost::json::object()};
    if (handlers_.request) {
        handlers_.request(std::move(request));
    } else {
        respond_error(message.id, error_code::method_not_found, "Method not found: " + std::string(message.method));
    }
}

void Peer::on_server_cancelled(const boost::json::object& params) {
    const auto* id = params.if_contains("requestId");
    if (id == nullptr) return;
    // A 2026 server ending one of our subscriptions/listen streams: it sends no response after this.
    if (id->is_int64()) {
        if (auto pending = take(id->get_int64())) {
            settle(pending, {nullptr, std::make_exception_ptr(ClientFailure("the server ended the request"))});
            return;
        }
    }
    std::lock_guard lock(mutex_);
    if (auto it = server_requests_.find(boost::json::serialize(*id)); it != server_requests_.end()) it->second = true;
}

void Peer::on_closed(const std::string& reason) {
    fail_all(reason);
    if (handlers_.closed) handlers_.closed(reason);
}

// ---- Settling requests.

Peer::PendingPtr Peer::take(std::int64_t id, bool text_readers_only) {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end() || (text_readers_only && !it->second->reply_as_text)) return nullptr;
    auto pending = std::move(it->second);
    pending_.erase(it);
    return pending;
}

void Peer::settle(const PendingPtr& pending, Outcome outcome) { pending->done(std::move(outcome)); }

void Peer::abandon(std::int64_t id, std::exception_ptr error, std::string_view reason) {
    auto pending = take(id);
    if (!pending) return;
    settle(pending, {nullptr, std::move(error)});
    if (closed()) return;
    // The server is told in the background; nobody waits for it.
    if (!transport_->cancel(boost::json::value(id)))
        notify("notifications/cancelled", {{"requestId", id}, {"reason", reason}});
}

void Peer::fail_all(const std::string& reason) {
    std::unordered_map<std::int64_t, PendingPtr> failing;
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        closed_reason_ = reason;
        failing.swap(pending_);
    }
    const auto error = std::make_exception_ptr(ConnectionClosed(reason));
    for (auto& [id, pending] : failing) settle(pending, {nullptr, error});
}

// ---- Timeouts: one timer on the I/O context, ticking while requests are in flight.

void Peer::arm_sweeper() {
    if (sweeping_.load(std::memory_order_acquire)) return;  // the common case, without the lock
    {
        std::lock_guard lock(mutex_);
        if (sweeping_ || closed_) return;
        sweeping_ = true;
    }
    boost::asio::post(io_, [weak = weak_from_this()] {
        if (auto self = weak.lock()) self->wait_for_sweep();
    });
}

void Peer::wait_for_sweep() {
    sweeper_->timer.expires_after(kSweepPeriod);
    sweeper_->timer.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
        if (auto self = weak.lock(); self && !ec) self->sweep();
    });
}

void Peer::sweep() {
    const auto now = Clock::now();
    std::vector<std::int64_t> expired;
    bool again = false;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, pending] : pending_) {
            if (pending->expired(now)) {
                expired.push_back(id);
            } else if (pending->timeout.count() > 0) {
                again = true;
            }
        }
        // Stopped when no request with a timeout is left; the next one starts it again.
        again = again && !closed_;
        sweeping_ = again;
    }
    for (auto id : expired) {
        abandon(id, std::make_exception_ptr(RequestTimeout("no answer in time")), "the client timed out");
    }
    if (again) wait_for_sweep();
}

}  // namespace mcp::detail
