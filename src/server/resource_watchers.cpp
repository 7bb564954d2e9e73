#include "server/resource_watchers.hpp"

#include "util/log.hpp"

#include <exception>
#include <functional>

namespace mcp::detail {

namespace {

// Runs each release once, when the last holder of the watch lets go.
struct Releases {
    std::vector<std::function<void()>> each;
    Releases() = default;
    Releases(const Releases&) = delete;
    Releases& operator=(const Releases&) = delete;
    ~Releases() {
        for (auto& release : each) {
            try {
                release();
            } catch (const std::exception& e) {
                log().warn("a resource subscription's release failed: {}", e.what());
            }
        }
    }
};

}  // namespace

void ResourceWatchers::add(ResourceWatcher watcher) {
    std::lock_guard lock(mutex_);
    watchers_.push_back(std::make_shared<const ResourceWatcher>(std::move(watcher)));
}

std::shared_ptr<void> ResourceWatchers::watch(std::string_view uri) {
    std::vector<std::shared_ptr<const ResourceWatcher>> watchers;
    {
        std::lock_guard lock(mutex_);
        if (watchers_.empty()) return nullptr;
        watchers = watchers_;
    }
    auto releases = std::make_shared<Releases>();
    for (const auto& watcher : watchers) {
        if (auto release = (*watcher)(uri)) releases->each.push_back(std::move(release));
    }
    if (releases->each.empty()) return nullptr;
    return releases;
}

}  // namespace mcp::detail
