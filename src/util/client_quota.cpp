#include "util/client_quota.hpp"

namespace mcp::detail {

ClientQuota::Place& ClientQuota::Place::operator=(Place&& other) noexcept {
    if (this != &other) {
        give_back();
        counts_ = std::move(other.counts_);
        client_ = std::move(other.client_);
    }
    return *this;
}

ClientQuota::Place::~Place() { give_back(); }

void ClientQuota::Place::give_back() {
    if (!counts_) return;
    std::lock_guard lock(counts_->mutex);
    auto it = counts_->held.find(client_);
    if (--it->second == 0) counts_->held.erase(it);
    counts_.reset();
}

std::optional<ClientQuota::Place> ClientQuota::try_take(std::string_view client, std::size_t per_client) {
    std::string key(client);
    {
        std::lock_guard lock(counts_->mutex);
        auto& held = counts_->held[key];
        if (!client.empty() && held >= per_client) {
            if (held == 0) counts_->held.erase(key);
            return std::nullopt;
        }
        ++held;
    }
    return Place(counts_, std::move(key));
}

std::size_t ClientQuota::held_by(std::string_view client) const {
    std::lock_guard lock(counts_->mutex);
    auto it = counts_->held.find(std::string(client));
    return it == counts_->held.end() ? 0 : it->second;
}

}  // namespace mcp::detail
