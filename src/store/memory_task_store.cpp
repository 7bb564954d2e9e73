#include "store/task_store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

namespace mcp::detail {

namespace {

boost::json::object object_of(const std::string& text) {
    if (text.empty()) return {};
    boost::system::error_code ec;
    auto parsed = boost::json::parse(text, ec);
    return !ec && parsed.is_object() ? std::move(parsed.as_object()) : boost::json::object();
}

std::string text_of(const boost::json::object& o) { return o.empty() ? std::string() : boost::json::serialize(o); }

// One node's tasks. Expired ones leave in order of expiry whenever the store is used, so nothing
// is scanned.
class MemoryTaskStore final : public TaskStore {
public:
    bool create(const TaskRecord& record, std::size_t max_per_client) override {
        std::lock_guard lock(mutex_);
        expire(epoch_ms());
        auto& counted = by_client_[record.charged_to];
        if (counted >= max_per_client) {
            if (counted == 0) by_client_.erase(record.charged_to);
            return false;
        }
        ++counted;
        by_owner_[record.owner].emplace(record.created_ms, record.id);
        expiry_.emplace(record.created_ms + record.ttl_ms, record.id);
        tasks_.insert_or_assign(record.id, record);
        return true;
    }

    std::optional<TaskRecord> get(std::string_view id) override {
        std::lock_guard lock(mutex_);
        expire(epoch_ms());
        auto* task = find(id);
        return task != nullptr ? std::optional<TaskRecord>(*task) : std::nullopt;
    }

    bool finish(std::string_view id, const TaskEnd& end) override {
        std::lock_guard lock(mutex_);
        auto* task = running(id);
        if (task == nullptr) return false;
        task->status = end.status;
        task->input_requests.clear();
        task->answers.clear();
        task->result = end.result;
        task->error = end.error;
        if (!end.message.empty()) task->message = end.message;
        task->updated_ms = epoch_ms();
        return true;
    }

    bool await_input(std::string_view id, std::string_view requests) override {
        std::lock_guard lock(mutex_);
        auto* task = running(id);
        if (task == nullptr) return false;
        task->status = TaskStatus::input_required;
        task->input_requests = requests;
        task->updated_ms = epoch_ms();
        return true;
    }

    bool answer(std::string_view id, std::string_view responses) override {
        std::lock_guard lock(mutex_);
        auto* task = running(id);
        if (task == nullptr || task->status != TaskStatus::input_required) return false;
        auto waiting = object_of(task->input_requests);
        auto answers = object_of(task->answers);
        bool any = false;
        for (const auto& kv : object_of(std::string(responses))) {
            if (waiting.erase(kv.key()) == 0) continue;  // not asked, or answered already
            answers[kv.key()] = kv.value();
            any = true;
        }
        if (!any) return false;
        task->input_requests = text_of(waiting);
        task->answers = text_of(answers);
        task->updated_ms = epoch_ms();
        return waiting.empty();
    }

    std::optional<std::string> resume(std::string_view id) override {
        std::lock_guard lock(mutex_);
        auto* task = running(id);
        if (task == nullptr) return std::nullopt;
        task->status = TaskStatus::working;
        task->input_requests.clear();
        task->updated_ms = epoch_ms();
        return std::exchange(task->answers, std::string());
    }

    void set_message(std::string_view id, std::string_view message) override {
        std::lock_guard lock(mutex_);
        if (auto* task = running(id)) {
            task->message = message;
            task->updated_ms = epoch_ms();
        }
    }

    std::optional<TaskRecord> cancel(std::string_view id) override {
        std::lock_guard lock(mutex_);
        expire(epoch_ms());
        auto* task = find(id);
        if (task == nullptr) return std::nullopt;
        if (!terminal(task->status)) {
            task->status = TaskStatus::cancelled;
            task->input_requests.clear();
            task->answers.clear();
            task->updated_ms = epoch_ms();
        }
        return *task;
    }

    std::vector<TaskRecord> list(std::string_view owner, std::int64_t after_ms, std::string_view after_id,
                                 std::size_t limit) override {
        std::lock_guard lock(mutex_);
        expire(epoch_ms());
        std::vector<TaskRecord> out;
        auto owned = by_owner_.find(owner);
        if (owned == by_owner_.end()) return out;
        auto it = owned->second.upper_bound({after_ms, std::string(after_id)});
        for (; it != owned->second.end() && out.size() < limit; ++it) out.push_back(tasks_.at(it->second));
        return out;
    }

private:
    TaskRecord* find(std::string_view id) {
        auto it = tasks_.find(std::string(id));
        return it == tasks_.end() ? nullptr : &it->second;
    }
    TaskRecord* running(std::string_view id) {
        auto* task = find(id);
        return task != nullptr && !terminal(task->status) ? task : nullptr;
    }

    void expire(std::int64_t now) {
        while (!expiry_.empty() && expiry_.begin()->first <= now) {
            auto node = expiry_.extract(expiry_.begin());
            auto it = tasks_.find(node.mapped());
            if (it == tasks_.end()) continue;
            auto owned = by_owner_.find(it->second.owner);
            owned->second.erase({it->second.created_ms, it->second.id});
            if (owned->second.empty()) by_owner_.erase(owned);
            auto counted = by_client_.find(it->second.charged_to);
            if (--counted->second == 0) by_client_.erase(counted);
            tasks_.erase(it);
        }
    }

    std::mutex mutex_;
    std::unordered_map<std::string, TaskRecord> tasks_;
    std::multimap<std::int64_t, std::string> expiry_;
    std::map<std::string, std::set<std::pair<std::int64_t, std::string>>, std::less<>> by_owner_;
    std::unordered_map<std::string, std::size_t> by_client_;  // tasks within their ttl, per client
};

}  // namespace

std::string_view to_string(TaskStatus status) {
    switch (status) {
        case TaskStatus::working: return "working";
        case TaskStatus::input_required: return "input_required";
        case TaskStatus::completed: return "completed";
        case TaskStatus::failed: return "failed";
        case TaskStatus::cancelled: return "cancelled";
    }
    return "working";
}

std::optional<TaskStatus> parse_task_status(std::string_view text) {
    for (auto s : {TaskStatus::working, TaskStatus::input_required, TaskStatus::completed, TaskStatus::failed,
                   TaskStatus::cancelled}) {
        if (to_string(s) == text) return s;
    }
    return std::nullopt;
}

std::int64_t epoch_ms(std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

std::unique_ptr<TaskStore> make_memory_task_store() { return std::make_unique<MemoryTaskStore>(); }

}  // namespace mcp::detail
