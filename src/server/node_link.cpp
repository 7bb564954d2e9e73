#include "server/node_link.hpp"

#include <mcp/protocol/errors.hpp>

#include "util/log.hpp"

#include <exception>
#include <utility>

namespace mcp::detail {

NodeLink::NodeLink(const std::string& store, Handlers elsewhere) : store_(store), elsewhere_(std::move(elsewhere)) {}

NodeLink::~NodeLink() {
    if (backend_ && backend_->bus()) {
        for (const auto id : subscriptions_) backend_->bus()->unsubscribe(id);
    }
}

const std::shared_ptr<Backend>& NodeLink::backend_ptr() {
    std::call_once(backend_once_, [this] {
        backend_ = make_backend(store_);
        if (auto* bus = backend_->bus()) join(*bus);
    });
    return backend_;
}

// Signals carry "<node>\n<payload>"; a node has already acted on its own.
void NodeLink::join(NodeBus& bus) {
    auto from_elsewhere = [&bus](std::string_view signal, std::string_view& payload) {
        const auto cut = signal.find('\n');
        if (cut == std::string_view::npos || signal.substr(0, cut) == bus.node_id()) return false;
        payload = signal.substr(cut + 1);
        return true;
    };
    // (2025 sessions were told by the node where the resource changed, through the store.)
    auto relay = [&](std::string topic, const std::function<void(std::string_view)>& handler) {
        subscriptions_.push_back(bus.subscribe(std::move(topic), [&handler, from_elsewhere](std::string_view signal) {
            std::string_view payload;
            if (from_elsewhere(signal, payload)) handler(payload);
        }));
    };
    relay("resource", elsewhere_.resource_updated);
    relay("task-cancel", elsewhere_.task_cancelled);
    relay("task", elsewhere_.task_changed);
    subscriptions_.push_back(bus.subscribe("app", [this, from_elsewhere](std::string_view signal) {
        std::string_view message;
        if (!from_elsewhere(signal, message)) return;
        const auto cut = message.find('\n');
        if (cut != std::string_view::npos) run_broadcast_handlers(message.substr(0, cut), message.substr(cut + 1));
    }));
}

void NodeLink::on_broadcast(std::string topic, std::function<void(std::string_view)> handler) {
    std::lock_guard lock(broadcast_mutex_);
    broadcast_handlers_.emplace(std::move(topic), std::move(handler));
}

void NodeLink::run_broadcast_handlers(std::string_view topic, std::string_view payload) {
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

void NodeLink::broadcast(std::string_view topic, std::string_view payload) {
    run_broadcast_handlers(topic, payload);  // this node first, before the caller goes on
    if (auto* bus = backend().bus()) {
        bus->publish("app", bus->node_id() + '\n' + std::string(topic) + '\n' + std::string(payload));
    }
}

void NodeLink::signal(std::string_view topic, std::string_view payload, std::string_view what) {
    auto* bus = backend().bus();
    if (bus == nullptr) return;
    try {
        bus->publish(topic, bus->node_id() + '\n' + std::string(payload));
    } catch (const StoreUnavailable& e) {
        log().warn("{} not sent to the other nodes: {}", what, e.what());
    }
}

void NodeLink::resource_updated(std::string_view uri) {
    signal("resource", uri, "a resource update for listen streams");
}

void NodeLink::task_cancelled(std::string_view task) {
    signal("task-cancel", task, "a task's cancellation (its record says cancelled already)");
}

void NodeLink::task_changed(std::string_view task) { signal("task", task, "a task's change for listen streams"); }

}  // namespace mcp::detail
