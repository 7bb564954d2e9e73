#pragma once
// Accepted bearer tokens, by SHA-256 of the token, until they expire: a client that sends the
// same token on every request costs one validation (or one introspection) per token, not per
// request. Bounded: the oldest entry goes when it is full.
#include "auth/jwt_validator.hpp"

#include <array>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>

namespace mcp::detail {

class TokenCache {
public:
    using Digest = std::array<unsigned char, 32>;

    explicit TokenCache(std::size_t capacity) : capacity_(capacity) {}

    static Digest digest(std::string_view token);

    std::optional<AcceptedToken> find(const Digest& key, std::chrono::system_clock::time_point now);
    void add(const Digest& key, AcceptedToken token);

private:
    std::size_t capacity_;
    std::mutex mutex_;
    std::map<Digest, AcceptedToken> entries_;
    std::deque<Digest> order_;  // insertion order, for eviction
};

}  // namespace mcp::detail
