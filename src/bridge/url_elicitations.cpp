#include "bridge/url_elicitations.hpp"

namespace mcp::detail {

void UrlElicitations::remember(const std::string& elicitation_id, const std::shared_ptr<Session>& session) {
    std::lock_guard lock(mutex_);
    if (!sessions_.insert_or_assign(elicitation_id, session).second) return;
    order_.push_back(elicitation_id);
    while (order_.size() > max_) {
        sessions_.erase(order_.front());
        order_.pop_front();
    }
}

std::shared_ptr<Session> UrlElicitations::take(std::string_view elicitation_id) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(elicitation_id);
    if (it == sessions_.end()) return nullptr;
    auto session = it->second.lock();
    sessions_.erase(it);
    return session;
}

}  // namespace mcp::detail
