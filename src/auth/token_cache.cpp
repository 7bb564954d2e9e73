#include "auth/token_cache.hpp"

#include <openssl/evp.h>

namespace mcp::detail {

TokenCache::Digest TokenCache::digest(std::string_view token) {
    Digest out{};
    unsigned int size = 0;
    EVP_Digest(token.data(), token.size(), out.data(), &size, EVP_sha256(), nullptr);
    return out;
}

std::optional<AcceptedToken> TokenCache::find(const Digest& key, std::chrono::system_clock::time_point now) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.expires <= now) return std::nullopt;
    return it->second;
}

void TokenCache::add(const Digest& key, AcceptedToken token) {
    if (capacity_ == 0) return;
    std::lock_guard lock(mutex_);
    if (entries_.insert_or_assign(key, std::move(token)).second) order_.push_back(key);
    while (entries_.size() > capacity_) {
        entries_.erase(order_.front());
        order_.pop_front();
    }
}

}  // namespace mcp::detail
