#include "server/cluster_link.hpp"

#include <mcp/protocol/errors.hpp>

#include "util/log.hpp"

#include <exception>
#include <utility>

namespace mcp::detail {

ClusterLink::ClusterLink(const std::string& store, Handlers elsewhere)
    : store_(store), elsewhere_(std::move(elsewhere)) {}

ClusterLink::~ClusterLink() {
    if (backend_ && backend_->cluster()) {
        for (const auto id : subscriptions_) backend_->cluster()->unsubscribe(id);
    }
}

const std::shared_ptr<Backend>& ClusterLink::backend_ptr() {
    std::call_once(backend_once_, [this] {
        backend_ = make_backend(store_);
        if (auto* cluster = backend_->cluster()) join(*cluster);
    });
    return backend_;
}

// Signals carry "<node>\n<payload>"; a node has already acted on its own.
void ClusterLink::join(Cluster& cluster) {
    auto from_elsewhere = [&cluster](std::string_view signal, std::string_view& payload) {
        const auto cut = signal.find('\n');
        if (cut == std::string_view::npos || signal.substr(0, cut) == cluster.node_id()) return false;
        payload = signal.substr(cut + 1);
        return true;
    };
    // (2025 sessions were told by the node where the resource changed, through the store.)
    auto relay = [&](std::string topic, const std::function<void(std::string_view)>& handler) {
        subscriptions_.push_back(
            cluster.subscribe(std::move(topic), [&handler, from_elsewhere](std::string_view signal) {
                std::string_view payload;
                if (from_elsewhere(signal, payload)) handler(payload);
            }));
    };
    relay("resource", elsewhere_.resource_updated);
    relay("task-cancel", elsewhere_.task_cancelled);
    relay("task", elsewhere_.task_changed);
    subscriptions_.push_back(cluster.subscribe("app", [this, from_elsewhere](std::string_view signal) {
        std::string_view message;
        if (!from_elsewhere(signal, message)) return;
        const auto cut = message.find('\n');
        if (cut != std::string_view::npos) run_broadcast_handlers(message.substr(0, cut), message.substr(cut + 1));
    }));
}

void ClusterLink::on_broadcast(std::string topic, std::function<void(std::string_view)> handler) {
    std::lock_guard lock(broadcast_mutex_);
    broadcast_handlers_.emplace(std::move(topic), std::move(handler));
}

void ClusterLink::run_broadcast_handlers(std::string_view topic, std::string_view payload) {
    std::vector<std::function<void(std::string_view)>> handlers;
    {
        std::lock_guard lock(broadcast_mutex_);
        auto [first, last] = broadcast_handlers_.equal_range(topic);
        for (auto it = first; it != last; ++it) handlers.push_back(it->second);
    }
    for (const auto& handler : handlers) {
        try {
            handler(payload);
        } catch (const std::exception& e) {
            log().warn("broadcast handler for {} failed: {}", topic, e.what());
        }
    }
}

void ClusterLink::broadcast(std::string_view topic, std::string_view payload) {
    run_broadcast_handlers(topic, payload);  // this node first, before the caller goes on
    if (auto* cluster = backend().cluster()) {
        cluster->publish("app", cluster->node_id() + '\n' + std::string(topic) + '\n' + std::string(payload));
    }
}

void ClusterLink::signal(std::string_view topic, std::string_view payload, std::string_view what) {
    auto* cluster = backend().cluster();
    if (cluster == nullptr) return;
    try {
        cluster->publish(topic, cluster->node_id() + '\n' + std::string(payload));
    } catch (const StoreUnavailable& e) {
        log().warn("{} not sent to the other nodes: {}", what, e.what());
    }
}

void ClusterLink::resource_updated(std::string_view uri) {
    signal("resource", uri, "a resource update for listen streams");
}

void ClusterLink::task_cancelled(std::string_view task) {
    signal("task-cancel", task, "a task's cancellation (its record says cancelled already)");
}

void ClusterLink::task_changed(std::string_view task) { signal("task", task, "a task's change for listen streams"); }

}  // namespace mcp::detail
