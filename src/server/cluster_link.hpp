#pragma once
// This node's link to the nodes sharing its store: the backend named by --store, made on first
// use, and what travels between the nodes besides 2025 session state (which the session service
// shares): resource updates for 2026 listen streams, tasks/cancel for the node running the task,
// and application broadcasts.
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

class ClusterLink {
public:
    // `store` is read when the backend is made, so it may change until then (Server::configure).
    // `resource_updated_elsewhere` runs, on a store thread, for a resource another node changed;
    // `task_cancelled_elsewhere` for a task another node was asked to cancel.
    ClusterLink(const std::string& store, std::function<void(std::string_view uri)> resource_updated_elsewhere,
                std::function<void(std::string_view task)> task_cancelled_elsewhere);
    ~ClusterLink();
    ClusterLink(const ClusterLink&) = delete;
    ClusterLink& operator=(const ClusterLink&) = delete;

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

private:
    void join(Cluster& cluster);
    void run_broadcast_handlers(std::string_view topic, std::string_view payload);

    const std::string& store_;
    std::function<void(std::string_view)> resource_updated_elsewhere_;
    std::function<void(std::string_view)> task_cancelled_elsewhere_;
    std::once_flag backend_once_;
    std::shared_ptr<Backend> backend_;
    std::vector<std::uint64_t> subscriptions_;

    std::mutex broadcast_mutex_;
    std::multimap<std::string, std::function<void(std::string_view)>, std::less<>> broadcast_handlers_;
};

}  // namespace mcp::detail
