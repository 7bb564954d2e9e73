#pragma once
// One server of a ClientGroup and the thread that keeps it connected: each attempt makes a
// transport and a Client, connects, asks a 2026 server to tell of list changes, and reads every
// list to the last page; then it waits for a list to change (and reads it again), the connection
// to go (and tries again after the backoff), or the end. What it has is published as immutable
// snapshots, so that the group reads them without waiting for an attempt.
#include <mcp/client/group.hpp>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace mcp::detail {

struct ServerCatalog {
    std::vector<Tool> tools;
    std::vector<Prompt> prompts;
    std::vector<Resource> resources;
    std::vector<ResourceTemplate> templates;
};

class ServerSlot : public std::enable_shared_from_this<ServerSlot> {
public:
    enum class Change { state, lists };

    // `options` must outlive the slot; `notify` runs on the slot's thread, no lock held.
    ServerSlot(ServerConfig config, const ClientGroupOptions& options,
               std::function<void(Change, const ServerState&)> notify);
    ~ServerSlot();
    ServerSlot(const ServerSlot&) = delete;
    ServerSlot& operator=(const ServerSlot&) = delete;

    void start();
    // Asks the thread to end: an attempt under way fails at once. Returns at once.
    void request_stop();
    // request_stop(), then waits for the thread, which closes the server. Idempotent.
    // std::logic_error on the slot's own thread (from its on_state callback).
    void stop();
    void reconnect();
    bool on_own_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

    const std::string& name() const { return config_.name; }
    ServerState state() const;
    std::shared_ptr<Client> client() const;
    std::shared_ptr<const ServerCatalog> catalog() const;

private:
    enum class Ended { stopping, lost, reconnect };
    struct Connection {
        std::shared_ptr<Client> client;
        Subscription listen;
    };

    void run();
    // One attempt: a connected client, its lists published, or a throw.
    Connection attempt(std::uint64_t id, std::stop_token stop);
    // While connected: lists read again when they change. Returns why the connection ends.
    Ended serve(const std::shared_ptr<Client>& client);
    ServerCatalog read_lists(Client& client, const std::set<ListKind>& kinds, const ServerCatalog& before,
                             const CallOptions& options) const;
    // Waits the backoff (or, given up, for reconnect()); false when stopping.
    bool wait_before_next(int failures, bool permanent, const std::string& error);
    void publish(const ServerState& state);
    void on_list_changed(std::uint64_t id, ListKind kind);
    void on_transport_closed(std::uint64_t id, const std::string& reason);

    const ServerConfig config_;
    const ClientGroupOptions& options_;
    const std::function<void(Change, const ServerState&)> notify_;
    std::thread thread_;

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    ServerState state_;
    std::shared_ptr<Client> client_;
    std::shared_ptr<const ServerCatalog> catalog_;
    std::uint64_t attempt_id_ = 0;  // the connection whose events count
    std::stop_source attempt_stop_;
    bool stopping_ = false;
    bool lost_ = false;
    bool reconnect_now_ = false;
    std::string lost_reason_;
    std::set<ListKind> stale_;
};

}  // namespace mcp::detail
