#pragma once
// This node's link to the nodes sharing its store: the backend named by --store, made on first
// use, and what travels between the nodes besides 2025 session state (which the session service
// shares): resource updates and task changes for 2026 listen streams, tasks/cancel for the node
// running the task, and application broadcasts.
#include "store/backend.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

class NodeLink {
public:
    // What another node said, run on a store thread.
    struct Handlers {
        std::function<void(std::string_view uri)> resource_updated;  // a resource changed there
        std::function<void(std::string_view task)> task_cancelled;   // a task was cancelled there
        std::function<void(std::string_view task)> task_changed;     // a task's status changed there
    };
    // `store` is read when the backend is made, so it may change until then (Server::configure).
    NodeLink(const std::string& store, Handlers elsewhere);
    ~NodeLink();
    NodeLink(const NodeLink&) = delete;
    NodeLink& operator=(const NodeLink&) = delete;

    Backend& backend() { return *backend_ptr(); }
    const std::shared_ptr<Backend>& backend_ptr();

    // Server::on_broadcast / broadcast: application messages to every node, this one first.
    void on_broadcast(std::string topic, std::function<void(std::string_view)> handler);
    void broadcast(std::string_view topic, std::string_view payload);
    // Tells the other nodes that a resource changed; with the store down, logs and goes on.
    void resource_updated(std::string_view uri);
    // Tells the other nodes that a task was cancelled, for the one that runs it; with the store
    // down, logs and goes on (the task's record says cancelled already).
    void task_cancelled(std::string_view task);
    // Tells the other nodes that a task's status changed, for their listen streams.
    void task_changed(std::string_view task);

private:
    void join(NodeBus& bus);
    void run_broadcast_handlers(std::string_view topic, std::string_view payload);

    const std::string& store_;
    // Publishes "<node>\n<payload>" on `topic`; with the store down, logs `what` and goes on.
    void signal(std::string_view topic, std::string_view payload, std::string_view what);

    Handlers elsewhere_;
    std::once_flag backend_once_;
    std::shared_ptr<Backend> backend_;
    std::vector<std::uint64_t> subscriptions_;

    std::mutex broadcast_mutex_;
    std::multimap<std::string, std::function<void(std::string_view)>, std::less<>> broadcast_handlers_;
};

}  // namespace mcp::detail
