// Client::listen: a 2026 subscriptions/listen stream, or resources/subscribe on a 2025 session, and
// the Subscription handle that ends it.
#include <mcp/client/client.hpp>

#include "client/client_core.hpp"
#include "util/log.hpp"

namespace mcp {

namespace {

boost::json::object filter_to_wire(const ListenFilter& filter) {
    boost::json::object out;
    if (filter.tools_list_changed) out["toolsListChanged"] = true;
    if (filter.prompts_list_changed) out["promptsListChanged"] = true;
    if (filter.resources_list_changed) out["resourcesListChanged"] = true;
    const auto strings = [](const std::vector<std::string>& values) {
        boost::json::array a;
        for (const auto& v : values) a.emplace_back(v);
        return a;
    };
    if (!filter.resource_subscriptions.empty()) out["resourceSubscriptions"] = strings(filter.resource_subscriptions);
    if (!filter.task_ids.empty()) out["taskIds"] = strings(filter.task_ids);
    return out;
}

ListenFilter filter_from_wire(const boost::json::object& wire) {
    ListenFilter filter;
    const auto flag = [&](const char* key) {
        const auto* v = wire.if_contains(key);
        return v != nullptr && v->is_bool() && v->get_bool();
    };
    const auto strings = [&](const char* key) {
        std::vector<std::string> out;
        if (const auto* v = wire.if_contains(key); v != nullptr && v->is_array()) {
            for (const auto& item : v->get_array()) {
                if (item.is_string()) out.emplace_back(item.get_string());
            }
        }
        return out;
    };
    filter.tools_list_changed = flag("toolsListChanged");
    filter.prompts_list_changed = flag("promptsListChanged");
    filter.resources_list_changed = flag("resourcesListChanged");
    filter.resource_subscriptions = strings("resourceSubscriptions");
    filter.task_ids = strings("taskIds");
    return filter;
}

void end(Subscription::State& state, std::exception_ptr error) {
    {
        std::lock_guard lock(state.mutex);
        state.ended = true;
        state.error = std::move(error);
    }
    state.changed.notify_all();
}

}  // namespace

Subscription Client::listen(const ListenFilter& filter, const CallOptions& options) {
    auto state = std::make_shared<Subscription::State>();
    state->client = impl_;
    state->era = impl_->era();
    Subscription subscription;
    subscription.state_ = state;
    if (state->era == Era::sessions) {
        for (const auto& uri : filter.resource_subscriptions) {
            subscribe(uri, options);
            state->uris.push_back(uri);
        }
        subscription.acknowledged_ = filter;
        return subscription;
    }

    impl_->check_may_block();
    auto spec = std::make_shared<CallSpec>();
    spec->method = "subscriptions/listen";
    spec->params = {{"notifications", filter_to_wire(filter)}};
    spec->options = options;
    spec->options.stop = state->stop.get_token();
    spec->long_lived = true;
    spec->id = state->id = impl_->peer->reserve_id();
    {
        std::lock_guard lock(impl_->mutex);
        impl_->listens[state->id] = state;
    }
    impl_->start(spec, 0, spec->params, [state, weak = std::weak_ptr<Impl>(impl_)](const detail::Outcome& outcome) {
        if (auto client = weak.lock()) {
            std::lock_guard lock(client->mutex);
            client->listens.erase(state->id);
        }
        end(*state, outcome.error);
    });

    // The stream counts once the server acknowledged it; the caller's token and timeout bound the wait.
    std::stop_callback on_caller_stop(options.stop, [state] { state->stop.request_stop(); });
    const auto deadline = std::chrono::steady_clock::now() + options.timeout.value_or(impl_->options.request_timeout);
    std::unique_lock lock(state->mutex);
    if (!state->changed.wait_until(lock, deadline, [&] { return state->acknowledged || state->ended; })) {
        lock.unlock();
        subscription.cancel();
        throw RequestTimeout("subscriptions/listen was not acknowledged in time");
    }
    if (!state->acknowledged) {
        auto error = state->error ? state->error : std::make_exception_ptr(ConnectionClosed("the stream ended"));
        lock.unlock();
        std::rethrow_exception(error);
    }
    subscription.acknowledged_ = *state->acknowledged;
    return subscription;
}

void Client::Impl::on_acknowledged(const boost::json::object& params) {
    const auto* meta = params.if_contains("_meta");
    const auto* id =
        meta != nullptr && meta->is_object() ? meta->as_object().if_contains(detail::kSubscriptionIdKey) : nullptr;
    if (id == nullptr || !id->is_int64()) return;
    std::shared_ptr<Subscription::State> state;
    {
        std::lock_guard lock(mutex);
        auto it = listens.find(id->get_int64());
        if (it == listens.end()) return;
        state = it->second.lock();
    }
    if (!state) return;
    const auto* filter = params.if_contains("notifications");
    {
        std::lock_guard lock(state->mutex);
        state->acknowledged =
            filter_from_wire(filter != nullptr && filter->is_object() ? filter->as_object() : boost::json::object());
    }
    state->changed.notify_all();
}

Subscription::~Subscription() { cancel(); }

Subscription::Subscription(Subscription&&) noexcept = default;

Subscription& Subscription::operator=(Subscription&& other) noexcept {
    if (this != &other) {
        cancel();
        state_ = std::move(other.state_);
        acknowledged_ = std::move(other.acknowledged_);
    }
    return *this;
}

void Subscription::cancel() {
    if (!state_) return;
    auto state = std::move(state_);
    auto client = state->client.lock();
    if (state->era == Era::stateless) {
        state->stop.request_stop();
        if (client) {
            std::lock_guard lock(client->mutex);
            client->listens.erase(state->id);
        }
        return;
    }
    for (const auto& uri : state->uris) {
        if (!client) break;
        try {
            client->call("resources/unsubscribe", {{"uri", uri}}, {});
        } catch (const std::exception& e) {
            detail::log().debug("client: resources/unsubscribe {} failed: {}", detail::printable(uri), e.what());
        }
    }
}

bool Subscription::active() const {
    if (!state_) return false;
    std::lock_guard lock(state_->mutex);
    return !state_->ended;
}

}  // namespace mcp
