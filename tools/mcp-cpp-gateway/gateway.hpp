#pragma once
// The gateway: one mcp::Mount per configured server, kept equal to what an mcp::ClientGroup lists
// of it. The group starts each server, restarts it with backoff when it goes away and lists it
// again when it says its lists changed (docs/adr/0029-gateway.md).
#include <mcp/bridge/mount.hpp>
#include <mcp/client/group.hpp>
#include <mcp/client/server_config.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mcp {
class Server;
}

namespace mcp_gateway {

// What the gateway allows its stdio children (remote servers are not its processes).
struct ChildLimits {
    // A child no call used for this long (and none in flight) is stopped; its entries stay listed
    // and the next call starts it again.
    std::optional<std::chrono::milliseconds> idle_stop;
    // Children running at once; 0: no limit. Starting one more stops the least recently used one
    // with no call in flight; when every one has a call in flight, the new call fails at once.
    std::size_t max_children = 0;
    // Each child's resource limits where its entry's "limits" gives none (--child-memory, ...).
    mcp::StdioLimits resources;
};

class Gateway {
public:
    // Mounts each server under its name made a prefix (mcp::mount_prefix), or without one, and
    // starts connecting them all. The upstream clients share the server's tracer (built by
    // mcp::run from the --otlp-* flags, so the gateway is made once they are applied). Throws std::invalid_argument for
    // two servers whose prefixes come out equal, or for several servers without prefixes.
    Gateway(mcp::Server& server, const std::vector<mcp::ServerConfig>& servers, bool prefixed = true,
            ChildLimits limits = {});
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
    using Clock = std::chrono::steady_clock;
    // A stdio server's process, as the limits see it.
    struct Child {
        mcp::ServerConfig config;
        Clock::time_point last_call = Clock::now();
        bool stopped = false;   // by the limits; the group no longer has it
        int calls_waiting = 0;  // calls waiting for it to start: not idle
    };

    // The client a mounted call goes to; a stopped child is started first (and waited for).
    // Throws mcp::Error when --max-children leaves no room.
    std::shared_ptr<mcp::Client> client_for(const std::string& name);
    // Makes room for one more child (children_mutex_ held): stops the least recently used idle
    // one when the limit is reached. False when every running child has a call in flight.
    bool make_room(const std::string& starting);
    // Stops a child (children_mutex_ held); `why` goes to stderr.
    void stop_child(const std::string& name, Child& child, const char* why);
    std::size_t running_children() const;  // children_mutex_ held
    bool idle(const std::string& name, const Child& child, Clock::duration quiet) const;
    // Every second or so: idle children stopped, and the limit kept after the startup.
    void watch_children(const std::stop_token& stop);

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

    const ChildLimits limits_;
    std::mutex children_mutex_;
    std::condition_variable_any watcher_wake_;  // the watcher's ticks, cut short by close()
    std::map<std::string, Child> children_;     // the stdio servers, by name
    // Whether each stdio server was ever listed (its entries mounted): until then the limits leave
    // it running. Made once; update() sets them without children_mutex_, which it may run under.
    std::map<std::string, std::atomic<bool>> listed_;
    std::jthread watcher_;  // with idle_stop or max_children
};

}  // namespace mcp_gateway
