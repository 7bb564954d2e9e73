#pragma once
// The 2026-07-28 caching hints honoured (server/utilities/caching.mdx): a result with ttlMs > 0 is
// served again, for the same method and params, until it goes stale or a notification says it
// changed. One client is one principal, so a "private" result is kept too, but never leaves the
// client. Bounded: the oldest entry goes first. Thread-safe.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstddef>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::detail {

class ResultCache {
public:
    using Clock = std::chrono::steady_clock;

    explicit ResultCache(std::size_t max_entries) : max_(max_entries) {}

    std::optional<boost::json::value> get(std::string_view method, const boost::json::object& params,
                                          Clock::time_point now = Clock::now());
    // Keeps a complete result for its ttlMs; results without a positive one are not kept.
    void put(std::string_view method, const boost::json::object& params, const boost::json::object& result,
             Clock::time_point now = Clock::now());
    // A list changed: every page of it goes.
    void forget_method(std::string_view method);
    // A resource changed: its reads go.
    void forget_read(std::string_view uri);
    void clear();

private:
    struct Entry {
        std::string method;
        std::string uri;  // resources/read
        boost::json::value result;
        Clock::time_point fresh_until;
        std::list<std::string>::iterator age;
    };
    void erase(std::unordered_map<std::string, Entry>::iterator it);

    std::size_t max_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
    std::list<std::string> oldest_first_;
};

}  // namespace mcp::detail
