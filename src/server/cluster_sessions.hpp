#pragma once
// How the core reaches 2025-era sessions that several nodes serve through a shared store. The
// HTTP transport provides it while it serves (ServerCore::set_cluster_sessions).
#include <mcp/server/session.hpp>

#include <memory>
#include <string_view>

namespace mcp::detail {

class ClusterSessions {
public:
    virtual ~ClusterSessions() = default;
    // The session, adopted from the store when this node has not served it yet; nullptr when gone.
    virtual std::shared_ptr<Session> session(std::string_view id) = 0;
    // Whether the session's GET stream is open on this node.
    virtual bool listening_here(std::string_view id) = 0;
};

}  // namespace mcp::detail
