#include "bridge/mount_subscriptions.hpp"
#include "bridge/mount_errors.hpp"

#include <mcp/protocol/errors.hpp>

#include "util/log.hpp"

#include <exception>
#include <utility>

namespace mcp::detail {

namespace {

bool declares_subscribe(const Client& client) {
    const auto* resources = client.server_capabilities().if_contains("resources");
    if (resources == nullptr || !resources->is_object()) return false;
    const auto* subscribe = resources->as_object().if_contains("subscribe");
    return subscribe != nullptr && subscribe->is_bool() && subscribe->get_bool();
}

}  // namespace

MountSubscriptions::MountSubscriptions(std::string prefix, ClientSource client)
    : prefix_(std::move(prefix)), client_(std::move(client)) {}

MountSubscriptions::~MountSubscriptions() { stop(); }

void MountSubscriptions::add(const std::string& inner_uri) {
    const auto client = client_();
    if (!client) {
        throw unreachable_mount(prefix_, "it is not connected");
    }
    if (!declares_subscribe(*client)) {
        throw InvalidParams("mounted server \"" + prefix_ +
                            "\" does not support resource subscriptions (it did not declare resources.subscribe)");
    }
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    if (holders_[inner_uri]++ > 0) return;
    pending_.push_back({inner_uri, true});
    if (!worker_.joinable()) worker_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
    changed_.notify_one();
}

bool MountSubscriptions::supported() const {
    const auto client = client_();
    return client && declares_subscribe(*client);
}

void MountSubscriptions::remove(std::string_view inner_uri) {
    std::lock_guard lock(mutex_);
    auto it = holders_.find(inner_uri);
    if (it == holders_.end()) return;
    if (--it->second > 0) return;
    pending_.push_back({it->first, false});
    holders_.erase(it);
    changed_.notify_one();
}

std::size_t MountSubscriptions::holders(std::string_view inner_uri) const {
    std::lock_guard lock(mutex_);
    auto it = holders_.find(inner_uri);
    return it == holders_.end() ? 0 : it->second;
}

void MountSubscriptions::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stopped_) return;
        stopped_ = true;
    }
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
    inner_.clear();  // each unsubscribes, if its client is still open
}

void MountSubscriptions::run(const std::stop_token& stop) {
    while (true) {
        Change change;
        {
            std::unique_lock lock(mutex_);
            if (!changed_.wait(lock, stop, [this] { return !pending_.empty(); })) return;
            change = std::move(pending_.front());
            pending_.pop_front();
        }
        apply(change);
    }
}

void MountSubscriptions::apply(const Change& change) {
    if (!change.subscribe) {
        auto it = inner_.find(change.inner_uri);
        if (it == inner_.end()) return;
        auto subscription = std::move(it->second);
        inner_.erase(it);
        subscription.cancel();
        return;
    }
    if (inner_.contains(change.inner_uri)) return;
    const auto client = client_();
    if (!client) return;
    try {
        inner_.emplace(change.inner_uri, client->listen({.resource_subscriptions = {change.inner_uri}}));
    } catch (const std::exception& e) {
        log().warn("mount {}: subscribing to {} failed: {}", prefix_, printable(change.inner_uri), e.what());
    }
}

}  // namespace mcp::detail
