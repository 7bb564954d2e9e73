#pragma once
// The gateway: one mcp::Mount per configured server, kept equal to what an mcp::ClientGroup lists
// of it. The group starts each server, restarts it with backoff when it goes away and lists it
// again when it says its lists changed (docs/adr/0029-gateway.md).
#include <mcp/bridge/mount.hpp>
#include <mcp/client/group.hpp>
#include <mcp/client/server_config.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mcp {
class Server;
}

namespace mcp_gateway {

class Gateway {
public:
    // Mounts each server under its name made a prefix (mcp::mount_prefix), or without one, and
    // starts connecting them all. The upstream clients share the server's tracer (built by
    // mcp::run from the --otlp-* flags, so the gateway is made once they are applied). Throws std::invalid_argument for
    // two servers whose prefixes come out equal, or for several servers without prefixes.
    Gateway(mcp::Server& server, const std::vector<mcp::ServerConfig>& servers, bool prefixed = true);
    // close(), then the mounts' entries are removed.
    ~Gateway();
    Gateway(const Gateway&) = delete;
    Gateway& operator=(const Gateway&) = delete;

    // Waits until every server's first attempt is over (connected, or failed and to be retried),
    // at most `timeout`; true when every one is connected. A server that cannot start does not
    // hold the others back.
    bool wait_started(std::chrono::milliseconds timeout) const;
    std::vector<mcp::ServerState> servers() const;
    // Stops every server. Idempotent.
    void close();

private:
    // The mounts made equal to the group's lists: a connected server's entries are synced, a failed
    // one's removed, a restarting one's kept (its calls fail at once meanwhile).
    void update();
    // Says on stderr when a server fails (once per failure), is given up, or is back.
    void report(const mcp::ServerState& state);

    std::mutex mutex_;  // update() one at a time
    std::mutex report_mutex_;
    std::map<std::string, int> reported_failures_;               // by server name
    std::map<std::string, std::shared_ptr<mcp::Mount>> mounts_;  // by server name
    std::unique_ptr<mcp::ClientGroup> group_;
};

}  // namespace mcp_gateway
