#pragma once
// Open subscriptions/listen streams (2026-07-28) and the change notifications they receive.
#include "server/call.hpp"
#include "util/fair_share.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

namespace mcp::detail {

struct Listen {
    std::shared_ptr<CallState> call;  // its sink is the stream; its id is the subscription id
    bool tools = false;
    bool prompts = false;
    bool resources = false;
    std::set<std::string, std::less<>> uris;
    std::vector<std::shared_ptr<void>> watches;  // the application's, of `uris`; released by end()
    // notifications/tasks for these tasks, when they belong to `task_owner` (server/tasks/).
    std::set<std::string, std::less<>> task_ids;
    std::string task_owner;

    std::mutex mutex;      // orders the acknowledgement before every notification
    bool open = false;     // acknowledged and not yet ended
    bool ended = false;    // the stream is over; the registry drops it on its next pass
    FairShare::Hold hold;  // its client's place among the node's listen streams, until it ends
    // Ends the stream when the call is cancelled. It lives as long as the Listen, and never
    // destroys the Listen itself: the registry does that, outside the callback.
    std::optional<std::stop_callback<std::function<void()>>> on_stop;

    // Sends `notification` tagged with this stream's subscription id, if it is open.
    void deliver(boost::json::value notification);
    // Marks the stream over and gives its place back; true for the one caller that ended it.
    bool end();
};

class ListenRegistry {
public:
    // A stream that holds its place (Listen::hold). O(1) unless the registry holds `max` streams,
    // ended ones included.
    void add(const std::shared_ptr<Listen>& listen, std::size_t max);
    // "tools", "prompts" or "resources".
    void list_changed(std::string_view list);
    void resource_updated(std::string_view uri);
    // Whether an open stream listens to the task, and its notification for those that do (those of
    // its owner).
    bool listens_to_task(std::string_view id);
    void task_changed(std::string_view id, std::string_view owner, const boost::json::value& notification);
    // Every stream still registered (server shutdown).
    std::vector<std::shared_ptr<Listen>> take_all();
    // Streams open now.
    std::size_t size();

private:
    // The open streams; ended ones are dropped (and destroyed after the lock is released).
    std::vector<std::shared_ptr<Listen>> open_listens();
    // Takes the ended streams out (mutex_ held); the caller destroys them outside the lock.
    std::vector<std::shared_ptr<Listen>> drop_ended_locked();

    std::mutex mutex_;
    std::vector<std::shared_ptr<Listen>> listens_;
};

}  // namespace mcp::detail
