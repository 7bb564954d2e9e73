#pragma once
// The URL elicitations a mount passed to 2025 outer sessions, by the inner server's elicitation id,
// so that its notifications/elicitation/complete reaches the session that was asked
// (docs/adr/0029-gateway.md, decision 13). Bounded: the oldest are forgotten first.
#include <mcp/sessions/session.hpp>

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace mcp::detail {

class UrlElicitations {
public:
    explicit UrlElicitations(std::size_t max) : max_(max) {}
    void remember(const std::string& elicitation_id, const std::shared_ptr<Session>& session);
    // The session asked for `elicitation_id`, forgotten from here on; null when none (or gone).
    std::shared_ptr<Session> take(std::string_view elicitation_id);

private:
    const std::size_t max_;
    std::mutex mutex_;
    std::map<std::string, std::weak_ptr<Session>, std::less<>> sessions_;
    std::deque<std::string> order_;  // oldest first; may name ids already taken
};

}  // namespace mcp::detail
