#include "bridge/mounted_call.hpp"

#include <mcp/protocol/errors.hpp>

#include <algorithm>
#include <utility>

namespace mcp::detail {

namespace {

const char* kind_of(const InnerRequest& request) {
    static constexpr const char* kinds[] = {"elicitation", "sampling", "roots"};
    return kinds[request.index()];
}

}  // namespace

OuterAnswer MountedCall::ask(InnerRequest request, const std::string& round_key) {
    std::unique_lock lock(mutex_);
    std::shared_ptr<Waiting> waiting;
    if (auto it = announced_.find(round_key); it != announced_.end()) {
        waiting = std::move(it->second);  // asked already: settled, or still waiting
        announced_.erase(it);
    } else {
        if (!abandoned_.empty()) throw Error(error_code::internal_error, abandoned_);
        if (done_) throw Error(error_code::internal_error, "the call this request belongs to has ended");
        auto key = key_for(kind_of(request), round_key);
        waiting = std::make_shared<Waiting>(
            Waiting{Question{std::move(key), std::move(request), !round_key.empty()}, {}, {}});
        waiting_.push_back(waiting);
        changed_.notify_all();
    }
    changed_.wait(lock, [&] { return waiting->answer || waiting->refusal; });
    if (waiting->refusal) throw Error(waiting->refusal->first, waiting->refusal->second);
    return std::move(*waiting->answer);
}

void MountedCall::announce(const std::vector<std::pair<std::string, InnerRequest>>& round) {
    std::lock_guard lock(mutex_);
    if (!abandoned_.empty() || done_) return;
    for (const auto& [round_key, request] : round) {
        if (round_key.empty() || announced_.contains(round_key)) continue;
        auto key = key_for(kind_of(request), round_key);
        auto waiting = std::make_shared<Waiting>(Waiting{Question{std::move(key), request, true}, {}, {}});
        announced_.emplace(round_key, waiting);
        waiting_.push_back(std::move(waiting));
    }
    changed_.notify_all();
}

std::string MountedCall::key_for(const char* kind, const std::string& round_key) {
    // A key answered once would answer again on the outer client's next retry: a repeated or empty
    // one gives way to one of the mount's own.
    if (!round_key.empty() && keys_.insert(round_key).second) return round_key;
    std::string key;
    do {
        key = std::string(kind) + "-" + std::to_string(++asked_);
    } while (!keys_.insert(key).second);
    return key;
}

void MountedCall::finish(std::exception_ptr error, InnerResult result) {
    std::lock_guard lock(mutex_);
    error_ = std::move(error);
    result_ = std::move(result);
    done_ = true;
    changed_.notify_all();
}

std::vector<MountedCall::Question> MountedCall::next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !waiting_.empty() || done_; });
    if (done_) {
        // An inner call that ended (cancelled, its server gone) leaves nobody to take an answer.
        refuse_all("the call this request belongs to has ended");
        return {};
    }
    std::vector<Question> questions;
    for (const auto& w : waiting_) questions.push_back(w->question);
    return questions;
}

bool MountedCall::ready_within(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return !waiting_.empty() || done_; });
}

void MountedCall::answer(const std::string& key, OuterAnswer answer) { settle(key, std::move(answer), std::nullopt); }

void MountedCall::refuse(const std::string& key, int code, std::string message) {
    settle(key, std::nullopt, std::make_pair(code, std::move(message)));
}

void MountedCall::answer(OuterAnswer answer) { settle(oldest_key(), std::move(answer), std::nullopt); }

void MountedCall::refuse(int code, std::string message) {
    settle(oldest_key(), std::nullopt, std::make_pair(code, std::move(message)));
}

std::string MountedCall::oldest_key() {
    std::lock_guard lock(mutex_);
    return waiting_.empty() ? std::string() : waiting_.front()->question.key;
}

void MountedCall::settle(const std::string& key, std::optional<OuterAnswer> answer,
                         std::optional<std::pair<int, std::string>> refusal) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(waiting_.begin(), waiting_.end(), [&](const auto& w) { return w->question.key == key; });
    if (it == waiting_.end()) return;
    (*it)->answer = std::move(answer);
    (*it)->refusal = std::move(refusal);
    waiting_.erase(it);
    changed_.notify_all();
}

InnerResult MountedCall::result() {
    std::lock_guard lock(mutex_);
    if (error_) std::rethrow_exception(error_);
    return std::move(result_);
}

void MountedCall::abandon(const std::string& why) {
    {
        std::lock_guard lock(mutex_);
        if (abandoned_.empty()) abandoned_ = why.empty() ? "the call was abandoned" : why;
        refuse_all(abandoned_);
    }
    stop_.request_stop();
}

void MountedCall::attach(Context* ctx) {
    std::lock_guard lock(progress_mutex_);
    ctx_ = ctx;
}

void MountedCall::progress(const Progress& p) {
    std::lock_guard lock(progress_mutex_);
    if (ctx_ != nullptr) ctx_->progress(p.progress, p.total, p.message);
}

bool MountedCall::log(const LogMessage& message) {
    std::lock_guard lock(progress_mutex_);
    if (ctx_ == nullptr) return false;
    if (logged_ >= kMaxLogMessages) return true;  // dropped: a storm
    ++logged_;
    ctx_->log(message.level, message.data, message.logger);
    return true;
}

void MountedCall::asked_log_level(std::optional<LogLevel> level) {
    selective_log_ = true;
    asked_level_ = level;
}

bool MountedCall::may_log(LogLevel level) const { return !selective_log_ || (asked_level_ && *asked_level_ <= level); }

void MountedCall::refuse_all(const std::string& why) {
    for (auto& w : waiting_) w->refusal = std::make_pair(error_code::internal_error, why);
    waiting_.clear();
    changed_.notify_all();
}

}  // namespace mcp::detail
