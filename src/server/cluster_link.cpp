#include "server/cluster_link.hpp"

#include <mcp/protocol/errors.hpp>

#include "util/log.hpp"

#include <exception>
#include <utility>

namespace mcp::detail {

ClusterLink::ClusterLink(const std::string& store, std::function<void(std::string_view)> resource_updated_elsewhere,
                         std::function<void(std::string_view)> task_cancelled_elsewhere)
    : store_(store),
      resource_updated_elsewhere_(std::move(resource_updated_elsewhere)),
      task_cancelled_elsewhere_(std::move(task_cancelled_elsewhere)) {}

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
    subscriptions_.push_back(cluster.subscribe("resource", [this, from_elsewhere](std::string_view signal) {
        std::string_view uri;
        if (from_elsewhere(signal, uri)) resource_updated_elsewhere_(uri);
    }));
    subscriptions_.push_back(cluster.subscribe("task-cancel", [this, from_elsewhere](std::string_view signal) {
        std::string_view task;
        if (from_elsewhere(signal, task)) task_cancelled_elsewhere_(task);
    }));
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

void ClusterLink::resource_updated(std::string_view uri) {
    auto* cluster = backend().cluster();
    if (cluster == nullptr) return;
    try {
        cluster->publish("resource", cluster->node_id() + '\n' + std::string(uri));
    } catch (const StoreUnavailable& e) {
        log().warn("resource update not sent to the other nodes' listen streams: {}", e.what());
    }
}

void ClusterLink::task_cancelled(std::string_view task) {
    auto* cluster = backend().cluster();
    if (cluster == nullptr) return;
    try {
        cluster->publish("task-cancel", cluster->node_id() + '\n' + std::string(task));
    } catch (const StoreUnavailable& e) {
        log().warn("task {} cancelled, but its node was not told: {}", task, e.what());
    }
}

}  // namespace mcp::detail
