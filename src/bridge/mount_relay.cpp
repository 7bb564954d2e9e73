#include "bridge/mount_relay.hpp"
#include "bridge/mount_errors.hpp"

#include "util/log.hpp"
#include "util/metrics.hpp"
#include "util/random.hpp"

#include <mcp/client/errors.hpp>
#include <mcp/protocol/errors.hpp>

#include <exception>
#include <optional>
#include <utility>

namespace mcp::detail {

namespace {

// What became of the resumes that crossed nodes: on the retry's node sent, answered, silent (the
// owner did not answer in time); on the owner's served, and too_large (a reply over the limit);
// on either ignored (a message nobody waits for, or malformed).
void count(const std::string& prefix, const char* outcome) {
    if (!metrics::enabled()) return;
    static auto& family = metrics::registry().family(
        "mcp_mount_forwarded_resumes_total",
        "2026 retries of mounted calls that reached another gateway node than the call's, by mount and outcome",
        metrics::Type::counter, {"mount", "outcome"});
    family.counter({prefix, outcome}).add();
}

Error node_error(const std::string& prefix, const std::string& why) {
    return Error(error_code::internal_error, "mounted server \"" + prefix + "\": " + why,
                 boost::json::object{{"mount", prefix}});
}

// What a finished inner call gives the retry's node: its result, or its error as the local
// retry's run would have thrown it.
ReplyMessage::Body outcome_of(const std::string& prefix, MountedCall& call) {
    try {
        auto result = call.result();
        if (auto* tool = std::get_if<CallToolResult>(&result)) return std::move(*tool);
        return ReplyMessage::Failed{error_code::internal_error,
                                    "mounted server \"" + prefix + "\": the retry continues a call of another kind",
                                    boost::json::object{{"mount", prefix}}};
    } catch (const Error& e) {
        return ReplyMessage::Failed{e.code(), e.message(), e.data()};
    } catch (const ClientFailure& e) {
        const auto error = unreachable_mount(prefix, e.what());
        return ReplyMessage::Failed{error.code(), error.message(), error.data()};
    } catch (const std::exception& e) {
        return ReplyMessage::Failed{error_code::internal_error, e.what(), nullptr};
    }
}

}  // namespace

// A resume this node sent, until its final reply.
struct MountRelay::Exchange {
    std::mutex mutex;
    std::condition_variable changed;
    OpenCalls::Clock::time_point heard;
    std::optional<ReplyMessage::Body> final;
};

void throw_no_longer_waiting(const std::string& prefix) {
    throw Error(error_code::internal_error,
                "mounted server \"" + prefix +
                    "\": the call this retry continues is no longer waiting (it expired, or another retry took it); "
                    "call the tool again",
                boost::json::object{{"mount", prefix}});
}

MountRelay::MountRelay(std::string prefix, OpenCalls& open, Publish publish, RelayTiming timing)
    : prefix_(std::move(prefix)), node_(random_token(9)), open_(open), publish_(std::move(publish)), timing_(timing) {}

MountRelay::~MountRelay() { stop(); }

std::string MountRelay::ticket(std::string id, MountedCall::Question question) const {
    return encode(RoundTicket{node_, std::move(id), std::move(question)});
}

CallToolResult MountRelay::resume(Context& ctx, RoundTicket ticket, const Settle& settle) {
    for (;;) {
        // A run that ends here (the retry lacks the answer) hands on the same ticket.
        ctx.set_round_state(encode(ticket));
        auto body = exchange(ticket, settle(ctx, ticket.question), ctx.stop_token());
        if (auto* result = std::get_if<CallToolResult>(&body)) return std::move(*result);
        if (auto* failed = std::get_if<ReplyMessage::Failed>(&body))
            throw Error(failed->code, failed->message, failed->data);
        if (std::holds_alternative<ReplyMessage::Gone>(body)) throw_no_longer_waiting(prefix_);
        ticket = std::get<RoundTicket>(std::move(body));
    }
}

ReplyMessage::Body MountRelay::exchange(const RoundTicket& ticket, Settlement settlement, const std::stop_token& stop) {
    const ResumeMessage resume{ticket.node, node_, random_token(), ticket.call, std::move(settlement)};
    auto text = encode(resume);
    if (text.size() > kMaxRelayPayload) {
        throw node_error(prefix_, "the answer is too large to pass to the gateway node holding the call (" +
                                      std::to_string(text.size()) + " bytes)");
    }
    auto waiting = std::make_shared<Exchange>();
    waiting->heard = OpenCalls::Clock::now();
    {
        std::lock_guard lock(exchanges_mutex_);
        exchanges_.emplace(resume.exchange, waiting);
    }
    struct Forget {
        MountRelay& relay;
        const std::string& id;
        ~Forget() {
            std::lock_guard lock(relay.exchanges_mutex_);
            relay.exchanges_.erase(id);
        }
    } forget{*this, resume.exchange};
    try {
        publish_(text);
    } catch (const std::exception& e) {
        throw node_error(prefix_, std::string("the gateway node holding the call cannot be reached: ") + e.what());
    }
    count(prefix_, "sent");
    // Made before the lock: a callback made on a stopped token runs at once, on this thread.
    std::stop_callback on_stop(stop, [&waiting] {
        std::lock_guard wake(waiting->mutex);
        waiting->changed.notify_all();
    });
    std::unique_lock lock(waiting->mutex);
    for (;;) {
        if (waiting->final) {
            count(prefix_, "answered");
            return std::move(*waiting->final);
        }
        if (stop.stop_requested()) {
            lock.unlock();
            try {
                publish_(encode(CancelMessage{resume.to, resume.exchange}));
            } catch (const std::exception& e) {
                log().warn("mount {}: a cancellation to another gateway node was not sent: {}", prefix_, e.what());
            }
            throw node_error(prefix_, "the retry was cancelled");
        }
        const auto deadline = waiting->heard + timing_.silence;
        if (OpenCalls::Clock::now() >= deadline) {
            count(prefix_, "silent");
            throw node_error(prefix_, "the gateway node holding the call this retry continues did not answer within " +
                                          std::to_string(timing_.silence.count()) +
                                          " ms (it may have stopped); call the tool again");
        }
        waiting->changed.wait_until(lock, deadline);
    }
}

void MountRelay::receive(std::string_view payload) {
    auto message = decode_relay_message(payload);
    if (!message) return ignore("malformed");
    if (auto* resume = std::get_if<ResumeMessage>(&*message)) {
        if (resume->to == node_) serve(std::move(*resume));
        return;
    }
    if (auto* cancelled = std::get_if<CancelMessage>(&*message)) {
        if (cancelled->to == node_) cancel(cancelled->exchange);
        return;
    }
    auto& answer = std::get<ReplyMessage>(*message);
    if (answer.to == node_) on_reply(std::move(answer));
}

void MountRelay::on_reply(ReplyMessage message) {
    std::shared_ptr<Exchange> waiting;
    {
        std::lock_guard lock(exchanges_mutex_);
        if (auto it = exchanges_.find(message.exchange); it != exchanges_.end()) waiting = it->second;
    }
    if (!waiting) return ignore("a reply nobody waits for");  // late (after the silence), or unknown
    std::lock_guard lock(waiting->mutex);
    if (waiting->final) return ignore("a reply after the final one");
    waiting->heard = OpenCalls::Clock::now();
    if (!std::holds_alternative<ReplyMessage::Working>(message.body)) waiting->final = std::move(message.body);
    waiting->changed.notify_all();
}

void MountRelay::serve(ResumeMessage resume) {
    if (!first_time(resume.exchange)) return ignore("a resume delivered again");
    auto call = open_.take(resume.call);  // one resume per parked call: a concurrent one finds nothing
    if (!call) return reply(resume, ReplyMessage::Gone{});
    std::lock_guard lock(workers_mutex_);
    if (stopped_) {
        call->abandon("the mount was removed");
        open_.leave(call);
        return reply(resume, ReplyMessage::Gone{});
    }
    for (auto id : finished_) {
        if (auto it = workers_.find(id); it != workers_.end()) {
            it->second.join();
            workers_.erase(it);
        }
    }
    finished_.clear();
    {
        std::lock_guard serving(served_mutex_);
        serving_.emplace(resume.exchange, call);
    }
    const auto id = next_worker_++;
    workers_.emplace(id, std::thread([this, id, resume = std::move(resume), call = std::move(call)] {
                         run_resume(resume, call);
                         {
                             std::lock_guard serving(served_mutex_);
                             serving_.erase(resume.exchange);
                         }
                         std::lock_guard done(workers_mutex_);
                         finished_.push_back(id);
                     }));
    count(prefix_, "served");
}

// As a local retry's run (Mount's relay): the answer settles the question, then the inner call's
// end, or its next question, which parks the call again.
void MountRelay::run_resume(const ResumeMessage& resume, const std::shared_ptr<MountedCall>& call) {
    if (const auto* refusal = std::get_if<Refusal>(&resume.settlement)) {
        call->refuse(refusal->code, refusal->message);
    } else {
        call->answer(std::get<OuterAnswer>(resume.settlement));
    }
    reply(resume, ReplyMessage::Working{});
    while (!call->ready_within(timing_.heartbeat)) reply(resume, ReplyMessage::Working{});
    if (auto question = call->next()) {
        try {
            auto id = open_.park(call);
            return reply(resume, RoundTicket{node_, std::move(id), std::move(*question)});
        } catch (const Error& e) {
            call->abandon(e.message());
            open_.leave(call);
            return reply(resume, ReplyMessage::Failed{e.code(), e.message(), e.data()});
        }
    }
    open_.leave(call);
    reply(resume, outcome_of(prefix_, *call));
}

void MountRelay::reply(const ResumeMessage& to, ReplyMessage::Body body) {
    auto text = encode(ReplyMessage{to.from, to.exchange, std::move(body)});
    if (text.size() > kMaxRelayPayload) {
        count(prefix_, "too_large");
        text = encode(ReplyMessage{
            to.from, to.exchange,
            ReplyMessage::Failed{
                error_code::internal_error,
                "mounted server \"" + prefix_ + "\": the result is too large to pass between gateway nodes (" +
                    std::to_string(text.size()) + " bytes, at most " + std::to_string(kMaxRelayPayload) + ")",
                boost::json::object{{"mount", prefix_}}}});
    }
    try {
        publish_(text);
    } catch (const std::exception& e) {
        log().warn("mount {}: a reply to another gateway node was not sent: {}", prefix_, e.what());
    }
}

bool MountRelay::first_time(const std::string& exchange) {
    std::lock_guard lock(served_mutex_);
    if (!served_.insert(exchange).second) return false;
    served_order_.push_back(exchange);
    if (served_order_.size() > kRememberedExchanges) {
        served_.erase(served_order_.front());
        served_order_.pop_front();
    }
    return true;
}

void MountRelay::cancel(const std::string& exchange) {
    std::shared_ptr<MountedCall> call;
    {
        std::lock_guard lock(served_mutex_);
        if (auto it = serving_.find(exchange); it != serving_.end()) call = it->second.lock();
    }
    if (!call) return ignore("a cancellation of nothing resumed here");
    call->abandon("the outer call was cancelled");  // its worker replies to nobody, and lets it go
}

void MountRelay::ignore(const char* why) {
    ++ignored_;
    count(prefix_, "ignored");
    log().debug("mount {}: a relay message ignored: {}", prefix_, why);
}

void MountRelay::stop() {
    std::map<std::uint64_t, std::thread> workers;
    {
        std::lock_guard lock(workers_mutex_);
        stopped_ = true;
        workers.swap(workers_);
    }
    for (auto& [id, thread] : workers) thread.join();
}

}  // namespace mcp::detail
