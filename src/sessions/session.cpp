#include "sessions/session_state.hpp"

#include <boost/json/serialize.hpp>

#include <vector>

namespace mcp {

Session::Session(std::unique_ptr<detail::SessionState> state) : state_(std::move(state)) {}
Session::~Session() = default;

const std::string& Session::id() const { return state_->id(); }
bool Session::initialized() const { return state_->initialized(); }
std::shared_ptr<const ClientState> Session::client() const { return state_->client(); }
LogLevel Session::log_level() const { return state_->log_level(); }
std::string Session::owner() const { return state_->owner(); }
bool Session::subscribed(std::string_view uri) const { return state_->subscribed(uri); }
bool Session::notify(boost::json::value message) { return state_->notify(std::move(message)); }
void Session::close() { state_->close(); }
bool Session::closed() const { return state_->closed(); }
void Session::cancel_all() { state_->cancel_all(); }
void Session::wait_idle() { state_->wait_idle(); }

}  // namespace mcp

namespace mcp::detail {

std::string request_key(const boost::json::value& id) { return boost::json::serialize(id); }

std::shared_ptr<Session> SessionState::make(std::string id, std::shared_ptr<MessageSink> channel, LogLevel level) {
    return std::shared_ptr<Session>(
        new Session(std::make_unique<SessionState>(std::move(id), std::move(channel), level)));
}

SessionState::SessionState(std::string id, std::shared_ptr<MessageSink> channel, LogLevel level)
    : id_(std::move(id)), log_level_(level), channel_(std::move(channel)) {}

bool SessionState::initialized() const {
    std::lock_guard lock(mutex_);
    return client_ != nullptr;
}

std::shared_ptr<const ClientState> SessionState::client() const {
    std::lock_guard lock(mutex_);
    return client_;
}

std::string SessionState::owner() const {
    std::lock_guard lock(mutex_);
    return owner_;
}

bool SessionState::owned_by(std::string_view subject) const {
    std::lock_guard lock(mutex_);
    return owner_ == subject;
}

bool SessionState::subscribed(std::string_view uri) const {
    std::lock_guard lock(mutex_);
    return subscriptions_.contains(uri);
}

bool SessionState::watching(std::string_view uri) const {
    std::lock_guard lock(mutex_);
    return watches_.contains(uri);
}

bool SessionState::keep_watch(std::string uri, std::shared_ptr<void> watch) {
    std::lock_guard lock(mutex_);
    return watches_.emplace(std::move(uri), std::move(watch)).second;
}

std::shared_ptr<void> SessionState::drop_watch(std::string_view uri) {
    std::lock_guard lock(mutex_);
    auto it = watches_.find(uri);
    if (it == watches_.end()) return nullptr;
    auto watch = std::move(it->second);
    watches_.erase(it);
    return watch;  // released by the caller, outside the lock
}

std::size_t SessionState::subscription_count() const {
    std::lock_guard lock(mutex_);
    return subscriptions_.size();
}

void SessionState::initialize(std::shared_ptr<const ClientState> client, std::string owner) {
    std::lock_guard lock(mutex_);
    client_ = std::move(client);
    owner_ = std::move(owner);
}

void SessionState::apply_locked(const SessionChange& change) {
    switch (change.kind) {
        case SessionChange::Kind::log_level: log_level_.store(change.level, std::memory_order_relaxed); break;
        case SessionChange::Kind::subscribe: subscriptions_.insert(change.uri); break;
        case SessionChange::Kind::unsubscribe:
            if (auto it = subscriptions_.find(change.uri); it != subscriptions_.end()) subscriptions_.erase(it);
            break;
    }
}

void SessionState::apply(const SessionChange& change) {
    std::lock_guard lock(mutex_);
    apply_locked(change);
}

SessionRecord SessionState::record() const {
    std::lock_guard lock(mutex_);
    return SessionRecord{id_, revision_, log_level(), owner_, client_, {subscriptions_.begin(), subscriptions_.end()}};
}

void SessionState::share(std::int64_t revision) {
    std::lock_guard lock(mutex_);
    shared_.store(true);
    revision_ = revision;
}

void SessionState::load(const SessionRecord& record) {
    std::lock_guard lock(mutex_);
    if (record.revision <= revision_) return;  // nothing newer than what is here
    revision_ = record.revision;
    owner_ = record.owner;
    log_level_.store(record.level);
    client_ = record.client;
    subscriptions_ = {record.subscriptions.begin(), record.subscriptions.end()};
}

bool SessionState::applied(const SessionChange& change, std::int64_t revision) {
    std::lock_guard lock(mutex_);
    apply_locked(change);
    if (revision != revision_ + 1) return false;
    revision_ = revision;
    return true;
}

bool SessionState::notify(boost::json::value message) {
    std::shared_ptr<MessageSink> channel;
    {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        channel = channel_;
    }
    return channel != nullptr && channel->send(std::move(message));
}

void SessionState::set_channel(std::shared_ptr<MessageSink> channel) {
    std::lock_guard lock(mutex_);
    channel_ = std::move(channel);
}

void SessionState::close() {
    std::vector<std::shared_ptr<InFlightCall>> streams;
    closed_source_.request_stop();
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
        for (auto& [key, weak] : in_flight_) {
            auto call = weak.lock();
            if (call && call->ends_with_client) streams.push_back(std::move(call));
        }
    }
    // Listen streams never end by themselves; with the client gone they end now. Outside the
    // lock: ending one untracks it.
    for (auto& call : streams) call->stop.request_stop();
}

bool SessionState::closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
}

bool SessionState::track(const std::shared_ptr<InFlightCall>& call) {
    std::lock_guard lock(mutex_);
    return in_flight_.emplace(call->key, call).second;
}

SessionState::Answering SessionState::untrack(const InFlightCall& call) {
    std::lock_guard lock(mutex_);
    in_flight_.erase(call.key);
    ++answering_;
    return Answering(this);
}

SessionState::Answering::~Answering() {
    if (state_ == nullptr) return;
    std::lock_guard lock(state_->mutex_);
    if (--state_->answering_ == 0 && state_->in_flight_.empty()) state_->idle_.notify_all();
}

bool SessionState::cancel(const boost::json::value& request_id) {
    std::shared_ptr<InFlightCall> call;
    {
        std::lock_guard lock(mutex_);
        auto it = in_flight_.find(request_key(request_id));
        if (it == in_flight_.end()) return false;  // finished already, never existed, or elsewhere
        call = it->second.lock();
    }
    if (!call) return false;
    call->cancel();
    return true;
}

void SessionState::cancel_all() {
    std::vector<std::shared_ptr<InFlightCall>> calls;
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, weak] : in_flight_) {
            if (auto call = weak.lock()) calls.push_back(std::move(call));
        }
    }
    for (auto& call : calls) call->cancel();
}

void SessionState::wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return in_flight_.empty() && answering_ == 0; });
}

std::optional<boost::json::value> SessionState::cached_roots() const {
    std::lock_guard lock(mutex_);
    return roots_;
}

void SessionState::cache_roots(boost::json::value result) {
    std::lock_guard lock(mutex_);
    roots_ = std::move(result);
}

void SessionState::forget_roots() {
    std::lock_guard lock(mutex_);
    roots_.reset();
}

}  // namespace mcp::detail
