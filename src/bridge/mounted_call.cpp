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
    std::vector<std::pair<InnerRequest, std::string>> one;
    one.emplace_back(std::move(request), round_key);
    return std::move(ask_all(enqueue(one)).front());
}

std::vector<OuterAnswer> MountedCall::ask(const std::vector<RoundRequest>& requests) {
    std::vector<std::pair<InnerRequest, std::string>> asked;
    for (const auto& r : requests) {
        if (const auto* elicitation = std::get_if<Elicitation>(&r.request)) {
            asked.emplace_back(*elicitation, r.key);
        } else if (const auto* sampling = std::get_if<SamplingRequest>(&r.request)) {
            asked.emplace_back(*sampling, r.key);
        } else {
            asked.emplace_back(RootsRequest{}, r.key);
        }
    }
    return ask_all(enqueue(asked));
}

std::vector<std::shared_ptr<MountedCall::Waiting>> MountedCall::enqueue(
    const std::vector<std::pair<InnerRequest, std::string>>& requests) {
    std::lock_guard lock(mutex_);
    if (!abandoned_.empty()) throw Error(error_code::internal_error, abandoned_);
    if (done_) throw Error(error_code::internal_error, "the call this request belongs to has ended");
    std::vector<std::shared_ptr<Waiting>> added;
    for (const auto& [request, round_key] : requests) {
        auto key = key_for(kind_of(request), round_key);
        added.push_back(
            std::make_shared<Waiting>(Waiting{Question{std::move(key), request, !round_key.empty()}, {}, {}}));
        waiting_.push_back(added.back());
    }
    changed_.notify_all();  // all at once: the outer handler sees them together
    return added;
}

std::vector<OuterAnswer> MountedCall::ask_all(const std::vector<std::shared_ptr<Waiting>>& waiting) {
    std::unique_lock lock(mutex_);
    const auto settled = [](const std::shared_ptr<Waiting>& w) { return w->answer || w->refusal; };
    changed_.wait(lock, [&] { return std::all_of(waiting.begin(), waiting.end(), settled); });
    std::vector<OuterAnswer> answers;
    for (const auto& w : waiting) {
        if (w->refusal) throw Error(w->refusal->first, w->refusal->second);
        answers.push_back(std::move(*w->answer));
    }
    return answers;
}

void MountedCall::task_started() {
    std::lock_guard lock(mutex_);
    task_ = true;
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

std::optional<MountedCall::Question> MountedCall::next(const std::function<void()>& start_task) {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return !waiting_.empty() || done_ || (task_ && !task_told_); });
        if (!task_ || task_told_) break;
        // The inner task's requests come after its start: the outer call becomes a task first.
        task_told_ = true;
        if (!start_task) continue;
        lock.unlock();
        start_task();
        lock.lock();
    }
    if (done_) {
        // An inner call that ended (cancelled, its server gone) leaves nobody to take an answer.
        refuse_all("the call this request belongs to has ended");
        return std::nullopt;
    }
    return waiting_.front()->question;
}

std::vector<MountedCall::Question> MountedCall::unsettled() {
    std::lock_guard lock(mutex_);
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
    // Stopped before the refusals wake the inner client: it then sees why its requests failed
    // (and, following a task, cancels it).
    stop_.request_stop();
    std::lock_guard lock(mutex_);
    if (abandoned_.empty()) abandoned_ = why.empty() ? "the call was abandoned" : why;
    refuse_all(abandoned_);
}

void MountedCall::stop_with(std::stop_token token, std::function<void()> on_stop) {
    if (!outer_stop_) outer_stop_.emplace(std::move(token), std::move(on_stop));
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
