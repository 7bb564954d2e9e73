#include "server/listen_registry.hpp"

#include <algorithm>

namespace mcp::detail {

void Listen::deliver(boost::json::value notification) {
    auto& params = notification.as_object()["params"];
    if (!params.is_object()) params = boost::json::object();
    auto& meta = params.as_object()["_meta"];
    if (!meta.is_object()) meta = boost::json::object();
    meta.as_object()["io.modelcontextprotocol/subscriptionId"] = call->message.id;
    std::lock_guard lock(mutex);
    if (open) call->sink->send(std::move(notification));
}

bool Listen::end() {
    std::vector<std::shared_ptr<void>> released;  // outside the lock
    std::lock_guard lock(mutex);
    if (ended) return false;
    ended = true;
    open = false;
    hold = FairShare::Hold();
    released.swap(watches);
    return true;
}

std::vector<std::shared_ptr<Listen>> ListenRegistry::drop_ended_locked() {
    auto ended = std::stable_partition(listens_.begin(), listens_.end(), [](const auto& l) {
        std::lock_guard listen_lock(l->mutex);
        return !l->ended;
    });
    std::vector<std::shared_ptr<Listen>> dropped(std::make_move_iterator(ended),
                                                 std::make_move_iterator(listens_.end()));
    listens_.erase(ended, listens_.end());
    return dropped;
}

std::vector<std::shared_ptr<Listen>> ListenRegistry::open_listens() {
    std::vector<std::shared_ptr<Listen>> dropped;
    std::vector<std::shared_ptr<Listen>> open;
    {
        std::lock_guard lock(mutex_);
        dropped = drop_ended_locked();
        open = listens_;
    }
    return open;  // `dropped` is destroyed here, outside the lock
}

void ListenRegistry::add(const std::shared_ptr<Listen>& listen, std::size_t max) {
    std::vector<std::shared_ptr<Listen>> dropped;  // destroyed after the lock is released
    std::lock_guard lock(mutex_);
    // Ended streams leave on the next notification, or here once there are as many as open ones
    // may be: what is open is bounded by its holds (FairShare), what is ended by this.
    if (listens_.size() >= max) dropped = drop_ended_locked();
    listens_.push_back(listen);
}

void ListenRegistry::list_changed(std::string_view list) {
    const std::string method = "notifications/" + std::string(list) + "/list_changed";
    for (const auto& l : open_listens()) {
        const bool wanted = list == "tools" ? l->tools : list == "prompts" ? l->prompts : l->resources;
        if (wanted) l->deliver(jsonrpc::make_notification(method, {}));
    }
}

void ListenRegistry::resource_updated(std::string_view uri) {
    for (const auto& l : open_listens()) {
        if (l->uris.contains(uri))
            l->deliver(jsonrpc::make_notification("notifications/resources/updated", {{"uri", uri}}));
    }
}

bool ListenRegistry::listens_to_task(std::string_view id) {
    const auto open = open_listens();
    return std::any_of(open.begin(), open.end(), [&](const auto& l) { return l->task_ids.contains(id); });
}

void ListenRegistry::task_changed(std::string_view id, std::string_view owner, const boost::json::value& notification) {
    for (const auto& l : open_listens()) {
        if (l->task_ids.contains(id) && l->task_owner == owner) l->deliver(notification);
    }
}

std::vector<std::shared_ptr<Listen>> ListenRegistry::take_all() {
    std::lock_guard lock(mutex_);
    return std::exchange(listens_, {});
}

std::size_t ListenRegistry::size() {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(listens_.begin(), listens_.end(), [](const auto& l) {
        std::lock_guard listen_lock(l->mutex);
        return !l->ended;
    }));
}

}  // namespace mcp::detail
