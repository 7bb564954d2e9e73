#include "server/client_requests/parking.hpp"

#include "server/call.hpp"
#include "server/call_metrics.hpp"
#include "server/client_limits.hpp"
#include "server/client_requests/round_span.hpp"
#include "server/core.hpp"
#include "server/dispatch.hpp"
#include "server/scope_guard.hpp"
#include "sessions/session_state.hpp"
#include "util/log.hpp"

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;
using Round = std::shared_ptr<ParkedRound>;

// The deadlines of requests still waiting; called once the round is settled.
void cancel_deadlines(ServerCore& core, const ParkedRound& round) {
    for (const auto& sent : round.sent) {
        if (sent.deadline != 0) core.deadlines().cancel(sent.deadline);
    }
}

// Requests nobody waits for any more: the mailbox forgets them and a client still there is told to
// drop them (a form left open).
void withdraw(CallState& call, const std::vector<std::string>& ids, std::string_view reason) {
    const bool client_there = !call.session->closed();
    for (const auto& id : ids) {
        call.core.sessions().mailbox().forget(id);
        if (client_there) cancel_on_client(call, id, reason);
    }
}

// Settles the round (mutex held) and returns the ids of the requests it was still waiting for,
// whose spans end unanswered for `why`.
std::vector<std::string> settle_locked(ServerCore& core, ParkedRound& round, Unanswered why) {
    round.settled = true;
    round.place = FairShare::Hold();
    std::vector<std::string> ids;
    for (auto& sent : round.sent) {
        if (!sent.answered) {
            ids.push_back(sent.id);
            end_request_span(core, std::move(sent.span), why);
        }
        sent.parked.reset();
    }
    return ids;
}

void answered(const std::shared_ptr<CallState>& call, const Round& round, std::size_t index,
              boost::json::value message) {
    {
        std::lock_guard lock(round->mutex);
        if (round->settled) return;
        auto& sent = round->sent[index];
        sent.answered = true;
        sent.parked.reset();
        end_request_span(call->core, std::move(sent.span), message);
        call->input.replies.insert_or_assign(sent.key, std::move(message));
        if (--round->unanswered > 0) return;
        round->settled = true;
        round->place = FairShare::Hold();
    }
    cancel_deadlines(call->core, *round);
    round->on_cancel.reset();
    round->on_close.reset();
    resume_call(call);
}

// One request went unanswered too long: the others of the round are given up too, and the
// handler learns it from InputTimeout when it asks again.
void timed_out(const std::shared_ptr<CallState>& call, const Round& round) {
    std::vector<std::string> ids;
    {
        std::lock_guard lock(round->mutex);
        if (round->settled) return;
        ids = settle_locked(call->core, *round, Unanswered::timeout);
        for (const auto& sent : round->sent) {
            if (!sent.answered) call->input.replies.insert_or_assign(sent.key, std::nullopt);
        }
    }
    cancel_deadlines(call->core, *round);
    round->on_cancel.reset();
    round->on_close.reset();
    withdraw(*call, ids, "timed out waiting for the client");
    resume_call(call);
}

void dropped(const std::shared_ptr<CallState>& call, const Round& round, const char* why, bool evicted) {
    std::vector<std::string> ids;
    {
        std::lock_guard lock(round->mutex);
        if (round->settled) return;
        ids = settle_locked(call->core, *round, Unanswered::cancelled);
    }
    log().debug("{} {}: parked call dropped: {}", call->message.method, target_of(*call), why);
    cancel_deadlines(call->core, *round);
    round->on_cancel.reset();
    round->on_close.reset();
    withdraw(*call, ids, evicted ? "the server needed the room for other clients" : "the request was cancelled");
    if (evicted) {
        evict_call(call);
    } else {
        drop_call(call);
    }
}

}  // namespace

void ParkedRound::Drop::operator()() const {
    auto c = call.lock();
    if (!c) return;
    // Not on this thread: it is whichever cancels or closes (a session with thousands of parked
    // calls closes them in one go), and the drop destroys this very callback.
    c->core.deadlines().post([c, r = round->shared_from_this(), why = why] { dropped(c, r, why, false); });
}

void park(const std::shared_ptr<CallState>& call) {
    auto& core = call->core;
    auto& session = *call->session;
    auto round = std::make_shared<ParkedRound>();
    // At the bound, the oldest parked call of a client above its share is evicted to make room.
    auto place = core.parked_calls.take(
        call->client(), {core.options.client_requests.max_parked_calls, core.options.clients.parked_calls},
        [weak_call = std::weak_ptr<CallState>(call), weak_round = std::weak_ptr<ParkedRound>(round)] {
            auto c = weak_call.lock();
            auto r = weak_round.lock();
            if (!c || !r) return;  // settled and gone meanwhile
            c->core.deadlines().post([c, r] { dropped(c, r, "its place went to another client's call", true); });
        });
    if (const auto* refused = std::get_if<FairShare::Refusal>(&place)) {
        if (*refused == FairShare::Refusal::full) throw ParkingFull{};
        throw over_client_quota("parked calls");
    }
    round->place = std::move(std::get<FairShare::Hold>(place));
    std::vector<WireRequest> requests = std::move(call->input.pending);
    call->input.pending.clear();

    {
        std::lock_guard lock(round->mutex);  // an early answer waits until the round is whole
        for (std::size_t i = 0; i < requests.size(); ++i) {
            auto span = begin_request_span(*call, requests[i].method, requests[i].params);
            auto id = new_request_id(core, session, answer_trace_note(span.get(), requests[i].method));
            set_request_id(span.get(), id);
            round->sent.push_back({requests[i].key, std::move(id)});
            round->sent.back().span = std::move(span);
            if (metrics::enabled()) round->sent[i].parked.emplace(&parked_requests(kind_name(requests[i].kind)));
            try {
                core.sessions().mailbox().expect(
                    round->sent[i].id, timeout_of(core, requests[i].kind) + std::chrono::minutes(1),
                    [call, round, i](boost::json::value message) { answered(call, round, i, std::move(message)); });
            } catch (...) {
                for (std::size_t j = 0; j < i; ++j) core.sessions().mailbox().forget(round->sent[j].id);
                throw;
            }
        }
        round->unanswered = requests.size();
    }
    call->parked = round;
    core.calls.started(call);  // a call served inline is tracked from here on
    if (!call->snapshot) call->snapshot = core.context_registry->capture();

    // Either may run at once, on this thread, when the call was cancelled or the client left already.
    round->on_cancel.emplace(call->stop.get_token(), ParkedRound::Drop{call, round.get(), "the request was cancelled"});
    round->on_close.emplace(SessionState::of(session).closed_token(),
                            ParkedRound::Drop{call, round.get(), "the client is gone"});
    const auto sent_at = Clock::now();
    for (std::size_t i = 0; i < requests.size(); ++i) {
        call->sink->send(jsonrpc::make_request(boost::json::value(round->sent[i].id), requests[i].method,
                                               std::move(requests[i].params)));
    }
    // After the requests went out, so that no deadline can withdraw one before it was sent. A round
    // settled meanwhile (every answer in already) needs none.
    std::lock_guard lock(round->mutex);
    if (round->settled) return;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        round->sent[i].deadline = core.deadlines().schedule(sent_at + timeout_of(core, requests[i].kind),
                                                            [call, round] { timed_out(call, round); });
    }
}

}  // namespace mcp::detail
