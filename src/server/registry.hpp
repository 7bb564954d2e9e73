#pragma once
// A name-keyed registry with a deterministic (sorted) order, safe to change while it is read,
// and keyset pagination: a page starts after the last key of the previous one, so adding or
// removing entries between pages neither repeats nor skips the others.
#include <map>
#include <memory>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

template <class Entry>
class Registry {
public:
    struct Page {
        std::vector<std::shared_ptr<const Entry>> items;
        bool more = false;
    };

    // Throws std::invalid_argument when the key is taken.
    void add(std::string key, std::shared_ptr<const Entry> entry, std::string_view what) {
        std::unique_lock lock(mutex_);
        if (entries_.contains(key)) throw std::invalid_argument("duplicate " + std::string(what) + ": " + key);
        entries_.emplace(std::move(key), std::move(entry));
    }

    bool remove(std::string_view key) {
        std::unique_lock lock(mutex_);
        auto it = entries_.find(key);
        if (it == entries_.end()) return false;
        entries_.erase(it);
        return true;
    }

    std::shared_ptr<const Entry> find(std::string_view key) const {
        std::shared_lock lock(mutex_);
        auto it = entries_.find(key);
        return it == entries_.end() ? nullptr : it->second;
    }

    // Up to `size` entries with keys after `after` (all from the start when `after` is empty).
    Page page(std::string_view after, std::size_t size) const {
        std::shared_lock lock(mutex_);
        auto it = after.empty() ? entries_.begin() : entries_.upper_bound(after);
        Page page;
        page.items.reserve(std::min(size, entries_.size()));
        for (; it != entries_.end() && page.items.size() < size; ++it) page.items.push_back(it->second);
        page.more = it != entries_.end();
        return page;
    }

    // Every entry, in key order.
    std::vector<std::shared_ptr<const Entry>> all() const {
        std::shared_lock lock(mutex_);
        std::vector<std::shared_ptr<const Entry>> out;
        out.reserve(entries_.size());
        for (const auto& [key, entry] : entries_) out.push_back(entry);
        return out;
    }

    std::size_t size() const {
        std::shared_lock lock(mutex_);
        return entries_.size();
    }

private:
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::shared_ptr<const Entry>, std::less<>> entries_;
};

}  // namespace mcp::detail
