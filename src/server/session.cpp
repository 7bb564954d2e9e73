#include "server/session_impl.hpp"

namespace mcp {

Session::Session(std::shared_ptr<MessageSink> channel, std::string id) : impl_(std::make_unique<Impl>()) {
    impl_->id = std::move(id);
    impl_->channel = std::move(channel);
}

Session::~Session() = default;

const std::string& Session::id() const { return impl_->id; }

bool Session::initialized() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->client != nullptr;
}

std::shared_ptr<const ClientState> Session::client() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->client;
}

const std::string& Session::owner() const { return impl_->owner; }

LogLevel Session::log_level() const { return impl_->log_level.load(std::memory_order_relaxed); }

bool Session::subscribed(std::string_view uri) const {
    std::lock_guard lock(impl_->mutex);
    return impl_->subscriptions.contains(uri);
}

bool Session::notify(boost::json::value message) {
    std::shared_ptr<MessageSink> channel;
    {
        std::lock_guard lock(impl_->mutex);
        if (impl_->closed) return false;
        channel = impl_->channel;
    }
    return channel != nullptr && channel->send(std::move(message));
}

void Session::set_channel(std::shared_ptr<MessageSink> channel) {
    std::lock_guard lock(impl_->mutex);
    impl_->channel = std::move(channel);
}

void Session::close() {
    std::vector<std::shared_ptr<detail::CallState>> streams;
    impl_->closed_source.request_stop();
    {
        std::lock_guard lock(impl_->mutex);
        impl_->closed = true;
        for (auto& [key, weak] : impl_->in_flight) {
            auto call = weak.lock();
            if (call && call->message.method == "subscriptions/listen") streams.push_back(std::move(call));
        }
    }
    // Listen streams never end by themselves; with the client gone they end now. Outside the
    // lock: ending one untracks it.
    for (auto& call : streams) call->stop.request_stop();
}

void Session::cancel_all() {
    std::vector<std::shared_ptr<detail::CallState>> calls;
    {
        std::lock_guard lock(impl_->mutex);
        for (auto& [key, weak] : impl_->in_flight) {
            if (auto call = weak.lock()) calls.push_back(std::move(call));
        }
    }
    for (auto& call : calls) {
        call->cancelled_by_client.store(true);
        call->stop.request_stop();
    }
}

bool Session::closed() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->closed;
}

void Session::wait_idle() {
    std::unique_lock lock(impl_->mutex);
    impl_->idle.wait(lock, [&] { return impl_->in_flight.empty(); });
}

bool Session::Impl::track(const std::shared_ptr<detail::CallState>& call) {
    std::lock_guard lock(mutex);
    return in_flight.emplace(call->key, call).second;
}

void Session::Impl::untrack(const detail::CallState& call) {
    std::lock_guard lock(mutex);
    in_flight.erase(call.key);
    if (in_flight.empty()) idle.notify_all();
}

bool Session::Impl::cancel(const boost::json::value& request_id) {
    std::shared_ptr<detail::CallState> call;
    {
        std::lock_guard lock(mutex);
        auto it = in_flight.find(detail::request_key(request_id));
        if (it == in_flight.end()) return false;  // finished already, never existed, or elsewhere
        call = it->second.lock();
    }
    if (!call) return false;
    call->cancelled_by_client.store(true);
    call->stop.request_stop();
    return true;
}

void Session::Impl::set_client(std::shared_ptr<const ClientState> state) {
    std::lock_guard lock(mutex);
    client = std::move(state);
}

void Session::Impl::subscribe(std::string uri) {
    std::lock_guard lock(mutex);
    subscriptions.insert(std::move(uri));
}

void Session::Impl::unsubscribe(std::string_view uri) {
    std::lock_guard lock(mutex);
    if (auto it = subscriptions.find(uri); it != subscriptions.end()) subscriptions.erase(it);
}

void Session::Impl::apply(const SessionChange& change) {
    switch (change.kind) {
        case SessionChange::Kind::log_level: log_level.store(change.level, std::memory_order_relaxed); break;
        case SessionChange::Kind::subscribe: subscriptions.insert(change.uri); break;
        case SessionChange::Kind::unsubscribe:
            if (auto it = subscriptions.find(change.uri); it != subscriptions.end()) subscriptions.erase(it);
            break;
    }
}

}  // namespace mcp
