#include "client/result_cache.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace mcp::detail {

namespace {

// A year: a longer ttlMs would overflow the clock, and means "until told otherwise" anyway.
constexpr double kLongestTtlMs = 365.0 * 24 * 3600 * 1000;

// The method and the params that decide the result (_meta is the envelope, not the question).
std::string key_of(std::string_view method, const boost::json::object& params) {
    boost::json::object question = params;
    question.erase("_meta");
    std::string key(method);
    key += '\n';
    key += boost::json::serialize(question);
    return key;
}

}  // namespace

std::optional<boost::json::value> ResultCache::get(std::string_view method, const boost::json::object& params,
                                                   Clock::time_point now) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key_of(method, params));
    if (it == entries_.end()) return std::nullopt;
    if (now >= it->second.fresh_until) {
        erase(it);
        return std::nullopt;
    }
    return it->second.result;
}

void ResultCache::put(std::string_view method, const boost::json::object& params, const boost::json::object& result,
                      Clock::time_point now) {
    if (max_ == 0 || params.contains("inputResponses") || params.contains("requestState")) return;
    const auto* ttl = result.if_contains("ttlMs");
    if (ttl == nullptr || !ttl->is_number()) return;
    const auto ms = std::min(ttl->to_number<double>(), kLongestTtlMs);
    if (!(ms > 0)) return;
    auto key = key_of(method, params);
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) erase(it);
    while (entries_.size() >= max_) erase(entries_.find(oldest_first_.front()));
    std::string uri;
    if (const auto* u = params.if_contains("uri"); u != nullptr && u->is_string()) uri = u->get_string();
    oldest_first_.push_back(key);
    const auto fresh = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
    entries_.emplace(std::move(key),
                     Entry{std::string(method), std::move(uri), result, now + fresh, std::prev(oldest_first_.end())});
}

void ResultCache::forget_method(std::string_view method) {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
        auto next = std::next(it);
        if (it->second.method == method) erase(it);
        it = next;
    }
}

void ResultCache::forget_read(std::string_view uri) {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
        auto next = std::next(it);
        if (it->second.method == "resources/read" && it->second.uri == uri) erase(it);
        it = next;
    }
}

void ResultCache::clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
    oldest_first_.clear();
}

void ResultCache::erase(std::unordered_map<std::string, Entry>::iterator it) {
    oldest_first_.erase(it->second.age);
    entries_.erase(it);
}

}  // namespace mcp::detail
