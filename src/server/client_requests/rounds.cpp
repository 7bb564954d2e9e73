#include "server/client_requests/rounds.hpp"

#include "server/call.hpp"
#include "server/call_metrics.hpp"
#include "server/client_requests/round_span.hpp"
#include "server/core.hpp"
#include "server/tasks/task_sink.hpp"
#include "server/trace_context.hpp"
#include "sessions/session_state.hpp"
#include "store/mailbox.hpp"
#include "util/random.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/server/blocking.hpp>

#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kRequestIdPurpose = "server-request";

InputAnswer answer_of(const WireRequest& request, const boost::json::value& message) {
    const auto& o = message.as_object();
    if (const auto* error = o.if_contains("error")) {
        const auto* e = error->if_object();
        const auto* code = e ? e->if_contains("code") : nullptr;
        const auto* text = e ? e->if_contains("message") : nullptr;
        throw ClientError(
            code && code->is_int64() ? static_cast<int>(code->get_int64()) : error_code::internal_error,
            text && text->is_string() ? std::string(text->get_string()) : "the client refused " + request.method);
    }
    try {
        return parse_answer(request, o.at("result"));
    } catch (const std::exception& e) {
        throw ClientError(error_code::invalid_params, "malformed " + request.method + " result: " + e.what());
    }
}

// The handler keeps its thread while the client answers.
std::vector<InputAnswer> ask_blocking(CallState& call, std::vector<WireRequest> requests) {
    auto& core = call.core;
    const auto& session = call.session;
    // Waiting on the transport's own thread would stop it from reading the answer.
    if (call.runs_inline) {
        throw std::logic_error("a handler declared runs_inline cannot wait for the client's answer to " +
                               requests.front().method + " unless it is replayable");
    }
    auto& state = SessionState::of(*session);
    std::vector<std::optional<InputAnswer>> answers(requests.size());

    struct Waiting {
        std::size_t index;
        std::string id;
        std::chrono::steady_clock::time_point deadline;
        std::unique_ptr<MailboxWait> answer;
        std::optional<metrics::GaugeScope> parked;  // counted while the answer is awaited
        SpanPtr span;                               // the request's, when the call is traced
    };
    std::vector<Waiting> waiting;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        if (!call.exchange->client_supports(r.capability)) throw CapabilityMissing(r.capability);
        if (r.kind == InputKind::roots) {
            if (auto cached = state.cached_roots()) {
                answers[i] = parse_answer(r, *cached);
                continue;
            }
        }
        if (session->closed()) throw ClientGone("the client is gone");
        const auto timeout = timeout_of(core, r.kind);
        auto span = begin_request_span(call, r.method, requests[i].params);
        auto id = new_request_id(core, *session, answer_trace_note(span.get(), r.method));
        set_request_id(span.get(), id);
        auto answer = std::make_unique<MailboxWait>(core.sessions().mailbox(), id, timeout + std::chrono::minutes(1));
        call.sink->send(jsonrpc::make_request(boost::json::value(id), r.method, r.params));
        waiting.push_back(Waiting{
            i, std::move(id), std::chrono::steady_clock::now() + timeout, std::move(answer), {}, std::move(span)});
        if (metrics::enabled()) waiting.back().parked.emplace(&parked_requests(kind_name(r.kind)));
    }

    // The wait ends early when the call is cancelled or the client goes away.
    std::stop_source stop;
    std::stop_callback on_cancel(call.stop.get_token(), [&] { stop.request_stop(); });
    std::stop_callback on_close(state.closed_token(), [&] { stop.request_stop(); });
    BlockingScope blocking;  // lets the handler pool add a thread while this one waits

    for (std::size_t n = 0; n < waiting.size(); ++n) {
        auto& w = waiting[n];
        auto message = w.answer->get(w.deadline, stop.get_token());
        if (!message) {
            const bool timed_out = !stop.stop_requested();
            for (std::size_t rest = n; rest < waiting.size(); ++rest) {
                end_request_span(core, std::move(waiting[rest].span),
                                 timed_out ? Unanswered::timeout : Unanswered::cancelled);
                // A client still there is told to drop what nobody waits for (a form left open).
                if (!session->closed()) {
                    cancel_on_client(call, waiting[rest].id,
                                     timed_out ? "timed out waiting for the client" : "the request was cancelled");
                }
            }
            if (timed_out) throw InputTimeout("no answer to " + requests[w.index].method + " in time");
            throw ClientGone(session->closed() ? "the client is gone" : "the request was cancelled");
        }
        end_request_span(core, std::move(w.span), *message);
        answers[w.index] = answer_of(requests[w.index], *message);
        if (requests[w.index].kind == InputKind::roots) state.cache_roots(message->as_object().at("result"));
    }
    if (call.task) call.task->answered();
    std::vector<InputAnswer> out;
    out.reserve(answers.size());
    for (auto& a : answers) out.push_back(std::move(*a));
    return out;
}

// A replayable handler: the answers come back with the call's replies, or the call parks
// (parking.hpp) and the handler runs again once they are in.
std::vector<InputAnswer> ask_replaying(CallState& call, std::vector<WireRequest> requests) {
    auto& state = SessionState::of(*call.session);
    auto& rounds = call.input;
    std::vector<InputAnswer> out;
    bool missing = false;
    for (auto& r : requests) {
        if (!call.exchange->client_supports(r.capability)) throw CapabilityMissing(r.capability);
        if (r.kind == InputKind::roots) {
            if (auto cached = state.cached_roots()) {
                out.push_back(parse_answer(r, *cached));
                continue;
            }
        }
        auto reply = rounds.replies.find(r.key);
        if (reply == rounds.replies.end()) {
            missing = true;
            rounds.pending.push_back(std::move(r));
            continue;
        }
        if (!reply->second) throw InputTimeout("no answer to " + r.method + " in time");
        out.push_back(answer_of(r, *reply->second));
        if (r.kind == InputKind::roots) state.cache_roots(reply->second->as_object().at("result"));
    }
    if (missing) {
        if (call.session->closed()) throw ClientGone("the client is gone");
        throw InputRequired{};
    }
    return out;
}

std::vector<InputAnswer> ask_stateless(CallState& call, std::vector<WireRequest> requests) {
    auto& rounds = call.input;
    std::vector<InputAnswer> out;
    bool missing = false;
    for (auto& r : requests) {
        if (!call.exchange->client_supports(r.capability)) throw CapabilityMissing(r.capability);
        const auto* answer = rounds.answers.if_contains(r.key);
        if (answer == nullptr) {
            missing = true;
            rounds.pending.push_back(std::move(r));
            continue;
        }
        try {
            out.push_back(parse_answer(r, *answer));
        } catch (const std::exception& e) {
            throw InvalidParams("inputResponses." + r.key + ": " + e.what());
        }
        rounds.used[r.key] = *answer;
    }
    // Every unanswered request of this call goes out in one InputRequiredResult.
    if (missing) throw InputRequired{};
    return out;
}

}  // namespace

std::vector<InputAnswer> ask(CallState& call, const std::vector<InputRequest>& requests) {
    std::vector<WireRequest> wire;
    wire.reserve(requests.size());
    for (const auto& r : requests) {
        wire.push_back(to_wire(r, call.input.keys));
        pass_on(call.trace, wire.back().params);  // the client's trace goes on through this request
    }
    if (call.exchange->era() == Era::stateless) return ask_stateless(call, std::move(wire));
    if (!call.session) throw ClientGone("there is no session to ask the client through");
    if (call.replayable) return ask_replaying(call, std::move(wire));
    return ask_blocking(call, std::move(wire));
}

std::chrono::milliseconds timeout_of(const ServerCore& core, InputKind kind) {
    const auto& t = core.options.client_requests;
    switch (kind) {
        case InputKind::sampling: return t.sampling_timeout;
        case InputKind::roots: return t.roots_timeout;
        default: return t.elicitation_timeout;
    }
}

// Sealed over the session: another session cannot answer it. The plaintext is
// "session\nrandom", then "\nnote" when the request is traced.
std::string new_request_id(ServerCore& core, const Session& session, std::string_view trace_note) {
    auto plain = session.id() + '\n' + random_token(9);
    if (!trace_note.empty()) {
        plain += '\n';
        plain += trace_note;
    }
    return core.keys().seal(kRequestIdPurpose, plain);
}

std::string_view trace_note_of(std::string_view plaintext) {
    const auto first = plaintext.find('\n');
    const auto second = first == std::string_view::npos ? first : plaintext.find('\n', first + 1);
    return second == std::string_view::npos ? std::string_view() : plaintext.substr(second + 1);
}

void cancel_on_client(CallState& call, const std::string& id, std::string_view reason) {
    call.sink->send(jsonrpc::make_notification("notifications/cancelled", {{"requestId", id}, {"reason", reason}}));
}

}  // namespace mcp::detail
