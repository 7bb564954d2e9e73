// A mounted call resumed from another gateway node (docs/adr/0029-gateway.md, decision 11): the
// wire of the round ticket, the resume and the replies, hostile payloads refused, and two relays
// joined by an in-process bus standing in for the store: a resume settles the call on its owner,
// which sends back the result, the next round's ticket, or "gone" to a second resume of one call;
// a silent owner fails the retry after the silence, heartbeats keep a slow one alive, and replies
// nobody waits for are ignored and counted.
#include "bridge/mount_relay.hpp"
#include "bridge/open_calls.hpp"
#include "bridge/relay_wire.hpp"
#include "util/metrics.hpp"

#include <mcp/protocol/errors.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

using namespace mcp;
using namespace mcp::detail;
using namespace std::chrono_literals;

namespace {

Elicitation name_question() {
    Elicitation e;
    e.message = "Who are you?";
    e.requested_schema = boost::json::parse(R"({"type":"object","properties":{"name":{"type":"string"}}})").as_object();
    return e;
}

ElicitResult ada() { return ElicitResult{ElicitAction::accept, {{"name", "Ada"}}}; }

CallToolResult text_result(std::string text) {
    CallToolResult r;
    r.content.emplace_back(mcp::text(std::move(text)));
    return r;
}

std::string first_text(const CallToolResult& r) { return std::get<TextContent>(r.content.at(0)).text; }

// mcp_mount_forwarded_resumes_total{mount="in",outcome}, counted from the first call on.
std::uint64_t forwarded(const char* outcome) {
    metrics::enable();
    return metrics::registry()
        .family("mcp_mount_forwarded_resumes_total", "", metrics::Type::counter, {"mount", "outcome"})
        .counter({"in", outcome})
        .value();
}

// What a store's pub/sub does for the relays: every message to every node. Off, a node hears nothing.
struct Bus {
    std::mutex mutex;
    std::vector<MountRelay*> nodes;
    std::atomic<bool> deliver_to_second{true};
    std::atomic<bool> twice{false};  // every message delivered twice, as a store might after a reconnection

    MountRelay::Publish publish() {
        return [this](std::string_view payload) {
            std::vector<MountRelay*> now;
            {
                std::lock_guard lock(mutex);
                now = nodes;
            }
            for (std::size_t i = 0; i < now.size(); ++i) {
                if (i == 1 && !deliver_to_second) continue;
                now[i]->receive(payload);
                if (twice) now[i]->receive(payload);
            }
        };
    }
};

// Two nodes, A (where the retries arrive) and B (where the calls wait).
class Relay : public ::testing::Test {
protected:
    static constexpr RelayTiming kTiming{.heartbeat = 50ms, .silence = 400ms};

    Relay() { bus.nodes = {&a, &b}; }

    // A call on B waiting on its first question, as a 2026 outer client's first run leaves it; the
    // inner side (`inner`) blocks in ask() until it is settled, then runs `then`.
    RoundTicket park_on_b(std::function<void(MountedCall&, const OuterAnswer&)> then) {
        call = std::make_shared<MountedCall>();
        open_b.enter(call);
        inner = std::async(std::launch::async, [c = call, then = std::move(then)] {
            try {
                auto answer = c->ask(name_question());
                then(*c, answer);
            } catch (const Error& e) {
                c->finish(std::make_exception_ptr(e), {});
            }
        });
        auto question = call->next();
        EXPECT_TRUE(question.has_value());
        auto id = open_b.park(call);
        return RoundTicket{b.node(), id, *question};
    }

    void TearDown() override {
        open_b.abandon_all();
        if (inner.valid()) inner.wait();
    }

    Bus bus;
    OpenCalls open_a{"in", 10, 60s};
    OpenCalls open_b{"in", 10, 60s};
    MountRelay a{"in", open_a, bus.publish(), kTiming};
    MountRelay b{"in", open_b, bus.publish(), kTiming};
    std::shared_ptr<MountedCall> call;
    std::future<void> inner;
};

}  // namespace

TEST(RelayWire, ATicketKeepsItsNodeCallAndQuestion) {
    RoundTicket ticket{"node-1", "call-1", {"elicitation-1", name_question(), true}};
    auto back = decode_ticket(encode(ticket));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->node, "node-1");
    EXPECT_EQ(back->call, "call-1");
    EXPECT_EQ(back->question.key, "elicitation-1");
    EXPECT_TRUE(back->question.in_round);
    const auto& e = std::get<Elicitation>(back->question.request);
    EXPECT_EQ(e.message, "Who are you?");
    EXPECT_EQ(e.requested_schema, name_question().requested_schema);

    SamplingRequest sampling;
    sampling.messages.push_back({Role::user, mcp::text("Say hi")});
    sampling.max_tokens = 20;
    auto sampled = decode_ticket(encode(RoundTicket{"n", "c", {"sampling-1", sampling, false}}));
    ASSERT_TRUE(sampled);
    const auto& s = std::get<SamplingRequest>(sampled->question.request);
    EXPECT_EQ(s.max_tokens, 20);
    EXPECT_EQ(std::get<TextContent>(s.messages.at(0).content).text, "Say hi");
}

TEST(RelayWire, EachMessageComesBackAsItWasSent) {
    auto resume = decode_relay_message(encode(ResumeMessage{"b", "a", "x1", "c1", OuterAnswer{ada()}}));
    ASSERT_TRUE(resume);
    const auto& r = std::get<ResumeMessage>(*resume);
    EXPECT_EQ(r.to, "b");
    EXPECT_EQ(r.from, "a");
    EXPECT_EQ(r.exchange, "x1");
    EXPECT_EQ(r.call, "c1");
    EXPECT_EQ(std::get<ElicitResult>(std::get<OuterAnswer>(r.settlement)).content.at("name"), "Ada");

    auto refused = decode_relay_message(encode(ResumeMessage{"b", "a", "x2", "c1", Refusal{-32601, "no"}}));
    ASSERT_TRUE(refused);
    EXPECT_EQ(std::get<Refusal>(std::get<ResumeMessage>(*refused).settlement).code, -32601);

    auto body_of = [](ReplyMessage::Body body) {
        auto m = decode_relay_message(encode(ReplyMessage{"a", "x1", std::move(body)}));
        EXPECT_TRUE(m);
        return std::get<ReplyMessage>(*m).body;
    };
    EXPECT_TRUE(std::holds_alternative<ReplyMessage::Working>(body_of(ReplyMessage::Working{})));
    EXPECT_TRUE(std::holds_alternative<ReplyMessage::Gone>(body_of(ReplyMessage::Gone{})));
    EXPECT_EQ(first_text(std::get<CallToolResult>(body_of(text_result("done")))), "done");
    auto failed = std::get<ReplyMessage::Failed>(body_of(ReplyMessage::Failed{-32603, "broke", {{"mount", "in"}}}));
    EXPECT_EQ(failed.code, -32603);
    EXPECT_EQ(failed.message, "broke");
    EXPECT_EQ(failed.data.at("mount"), "in");
    auto round = std::get<RoundTicket>(body_of(RoundTicket{"b", "c2", {"k", name_question(), false}}));
    EXPECT_EQ(round.call, "c2");

    auto cancel = decode_relay_message(encode(CancelMessage{"b", "x1"}));
    ASSERT_TRUE(cancel);
    EXPECT_EQ(std::get<CancelMessage>(*cancel).to, "b");
    EXPECT_EQ(std::get<CancelMessage>(*cancel).exchange, "x1");
}

TEST(RelayWire, HostilePayloadsGiveNothing) {
    const std::string resume = encode(ResumeMessage{"b", "a", "x", "c", OuterAnswer{ada()}});
    const std::vector<std::string> hostile = {
        "",
        "not json",
        "[]",
        "42",
        "{}",
        R"({"v":2,"type":"resume","to":"b","from":"a","exchange":"x","call":"c","settlement":{"refusal":{"code":1,"message":"m"}}})",
        R"({"v":1,"type":"other"})",
        R"({"v":1,"type":"resume","to":"","from":"a","exchange":"x","call":"c","settlement":{"refusal":{"code":1,"message":"m"}}})",
        R"({"v":1,"type":"resume","to":"b","from":"a","exchange":"x","call":"c","settlement":{}})",
        R"({"v":1,"type":"resume","to":"b","from":"a","exchange":"x","call":"c","settlement":{"refusal":{"code":"1","message":"m"}}})",
        R"({"v":1,"type":"resume","to":"b","from":"a","exchange":"x","call":"c","settlement":{"refusal":{"code":99999999999,"message":"m"}}})",
        R"({"v":1,"type":"resume","to":"b","from":"a","exchange":"x","call":"c","settlement":{"refusal":{"code":1,"message":"m"},"elicitation":{"action":"accept"}}})",
        R"({"v":1,"type":"resume","to":"b","from":"a","exchange":"x","call":"c","settlement":{"elicitation":{"action":"maybe"}}})",
        R"({"v":1,"type":"reply","to":"a","exchange":"x"})",
        R"({"v":1,"type":"cancel","to":"b","exchange":""})",
        R"({"v":1,"type":"cancel","to":"b"})",
        R"({"v":1,"type":"reply","to":"a","exchange":"x","gone":true,"working":true})",
        R"({"v":1,"type":"reply","to":"a","exchange":"x","result":[]})",
        R"({"v":1,"type":"reply","to":"a","exchange":"x","error":{"code":-1}})",
        R"({"v":1,"type":"reply","to":"a","exchange":"x","round":{"v":1,"node":"b","call":"c","question":{"key":"k","inRound":"yes","elicitation":{"message":"m"}}}})",
        R"({"v":1,"type":"reply","to":"a","exchange":"x","round":{"v":1,"node":"b","call":"c","question":{"key":"k","inRound":true,"sampling":{"messages":[]}}}})",
        resume.substr(0, resume.size() / 2),
        resume + std::string(kMaxRelayPayload, ' '),  // over the limit, however well formed
    };
    for (const auto& text : hostile) EXPECT_FALSE(decode_relay_message(text)) << text.substr(0, 200);
    EXPECT_FALSE(decode_ticket("a bare id, from a node before tickets"));
    EXPECT_FALSE(decode_ticket(
        R"({"v":1,"node":"b","call":"","question":{"key":"k","inRound":true,"elicitation":{"message":"m"}}})"));
    EXPECT_TRUE(decode_relay_message(resume));
}

TEST_F(Relay, AnAnswerSentToTheOwnerEndsTheCallThereAndTheResultComesBack) {
    auto ticket = park_on_b([](MountedCall& c, const OuterAnswer& answer) {
        c.finish(nullptr,
                 text_result("Hello " + std::string(std::get<ElicitResult>(answer).content.at("name").as_string())));
    });
    EXPECT_FALSE(a.elsewhere(a.node()));
    EXPECT_TRUE(a.elsewhere(ticket.node));
    const auto sent = forwarded("sent");
    const auto served = forwarded("served");
    const auto answered = forwarded("answered");
    auto body = a.exchange(ticket, OuterAnswer{ada()}, {});
    EXPECT_EQ(forwarded("sent"), sent + 1);
    EXPECT_EQ(forwarded("served"), served + 1);
    EXPECT_EQ(forwarded("answered"), answered + 1);
    ASSERT_TRUE(std::holds_alternative<CallToolResult>(body));
    EXPECT_EQ(first_text(std::get<CallToolResult>(body)), "Hello Ada");
    EXPECT_EQ(a.ignored(), 0U);
}

TEST_F(Relay, TheNextQuestionComesBackAsATicketOfTheOwnerAndIsResumedAgain) {
    auto ticket = park_on_b([](MountedCall& c, const OuterAnswer&) {
        auto second = c.ask(name_question());
        c.finish(nullptr, text_result(std::get<ElicitResult>(second).accepted() ? "accepted twice" : "declined"));
    });
    auto body = a.exchange(ticket, OuterAnswer{ada()}, {});
    ASSERT_TRUE(std::holds_alternative<RoundTicket>(body));
    auto next = std::get<RoundTicket>(body);
    EXPECT_EQ(next.node, b.node());
    EXPECT_NE(next.call, ticket.call);
    EXPECT_EQ(next.question.key, "elicitation-2");
    auto end = a.exchange(next, OuterAnswer{ada()}, {});
    ASSERT_TRUE(std::holds_alternative<CallToolResult>(end));
    EXPECT_EQ(first_text(std::get<CallToolResult>(end)), "accepted twice");
}

TEST_F(Relay, ARefusalReachesTheInnerServerAndItsErrorComesBack) {
    auto ticket = park_on_b([](MountedCall&, const OuterAnswer&) { ADD_FAILURE() << "answered"; });
    auto body = a.exchange(ticket, Refusal{error_code::method_not_found, "no forms here"}, {});
    ASSERT_TRUE(std::holds_alternative<ReplyMessage::Failed>(body));
    EXPECT_EQ(std::get<ReplyMessage::Failed>(body).code, error_code::method_not_found);
    EXPECT_EQ(std::get<ReplyMessage::Failed>(body).message, "no forms here");
}

TEST_F(Relay, ASecondResumeOfOneCallFindsItGone) {
    std::promise<void> go;
    auto ticket = park_on_b([released = go.get_future().share()](MountedCall& c, const OuterAnswer&) {
        released.wait();
        c.finish(nullptr, text_result("once"));
    });
    auto first = std::async(std::launch::async, [&] { return a.exchange(ticket, OuterAnswer{ada()}, {}); });
    // The first resume took the call (B said it works on it): a second one, from any node, is too late.
    EXPECT_EQ(std::future_status::timeout, first.wait_for(100ms));
    auto second = a.exchange(ticket, OuterAnswer{ada()}, {});
    EXPECT_TRUE(std::holds_alternative<ReplyMessage::Gone>(second));
    go.set_value();
    EXPECT_EQ(first_text(std::get<CallToolResult>(first.get())), "once");
}

TEST_F(Relay, DuplicatedMessagesChangeNothing) {
    // The owner serves a resume once (its duplicate would find the call taken, and say "gone"), and
    // the retry's node takes the first final reply.
    auto ticket = park_on_b([](MountedCall& c, const OuterAnswer&) {
        std::this_thread::sleep_for(100ms);
        c.finish(nullptr, text_result("once"));
    });
    bus.twice = true;
    auto body = a.exchange(ticket, OuterAnswer{ada()}, {});
    ASSERT_TRUE(std::holds_alternative<CallToolResult>(body));
    EXPECT_EQ(first_text(std::get<CallToolResult>(body)), "once");
    EXPECT_EQ(b.ignored(), 1U);  // the resume's second delivery
}

TEST_F(Relay, ASilentOwnerFailsTheRetryAfterTheSilenceAndItsLateReplyIsIgnored) {
    auto ticket = park_on_b([](MountedCall& c, const OuterAnswer&) { c.finish(nullptr, text_result("late")); });
    bus.deliver_to_second = false;  // B is gone for the bus
    const auto silent = forwarded("silent");
    const auto began = std::chrono::steady_clock::now();
    try {
        a.exchange(ticket, OuterAnswer{ada()}, {});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), error_code::internal_error);
        EXPECT_NE(e.message().find("did not answer within 400 ms"), std::string::npos) << e.message();
    }
    const auto took = std::chrono::steady_clock::now() - began;
    EXPECT_EQ(forwarded("silent"), silent + 1);
    EXPECT_GE(took, 400ms);
    EXPECT_LT(took, 2s);
    // A reply coming after that, or one for an exchange never made, is dropped and counted.
    a.receive(encode(ReplyMessage{a.node(), "never-sent", text_result("stray")}));
    a.receive("{ not json");
    a.receive(encode(ReplyMessage{"another-node", "x", ReplyMessage::Gone{}}));  // not A's: not counted
    EXPECT_EQ(a.ignored(), 2U);
}

TEST_F(Relay, HeartbeatsKeepASlowOwnerAlivePastTheSilence) {
    auto ticket = park_on_b([](MountedCall& c, const OuterAnswer&) {
        std::this_thread::sleep_for(1s);  // over twice the silence
        c.finish(nullptr, text_result("slow"));
    });
    auto body = a.exchange(ticket, OuterAnswer{ada()}, {});
    ASSERT_TRUE(std::holds_alternative<CallToolResult>(body));
    EXPECT_EQ(first_text(std::get<CallToolResult>(body)), "slow");
}

TEST_F(Relay, AResultTooLargeToPassIsAnErrorNamingTheLimit) {
    auto ticket = park_on_b(
        [](MountedCall& c, const OuterAnswer&) { c.finish(nullptr, text_result(std::string(kMaxRelayPayload, 'x'))); });
    auto body = a.exchange(ticket, OuterAnswer{ada()}, {});
    ASSERT_TRUE(std::holds_alternative<ReplyMessage::Failed>(body));
    EXPECT_NE(std::get<ReplyMessage::Failed>(body).message.find("too large"), std::string::npos);
}

TEST_F(Relay, ACancelledRetryStopsWaitingAndTheOwnerAbandonsTheCall) {
    // The inner call works until it is stopped (as a cancelled inner call is), for 3 s at most.
    std::atomic<bool> stopped{false};
    auto ticket = park_on_b([&stopped](MountedCall& c, const OuterAnswer&) {
        const auto until = std::chrono::steady_clock::now() + 3s;
        while (!c.stop_token().stop_requested() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(10ms);
        stopped = c.stop_token().stop_requested();
        c.finish(nullptr, text_result("after"));
    });
    std::stop_source stop;
    auto waiting =
        std::async(std::launch::async, [&] { return a.exchange(ticket, OuterAnswer{ada()}, stop.get_token()); });
    EXPECT_EQ(std::future_status::timeout, waiting.wait_for(100ms));
    stop.request_stop();
    EXPECT_THROW(waiting.get(), Error);
    inner.wait();
    EXPECT_TRUE(stopped.load()) << "the owner did not abandon the call";
}

TEST_F(Relay, ARetryCancelledBeforeItWaitsFailsAtOnce) {
    auto ticket = park_on_b([](MountedCall& c, const OuterAnswer&) {
        const auto until = std::chrono::steady_clock::now() + 3s;
        while (!c.stop_token().stop_requested() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(10ms);
        c.finish(nullptr, text_result("unseen"));
    });
    std::stop_source stop;
    stop.request_stop();
    const auto began = std::chrono::steady_clock::now();
    EXPECT_THROW(a.exchange(ticket, OuterAnswer{ada()}, stop.get_token()), Error);
    EXPECT_LT(std::chrono::steady_clock::now() - began, 1s);
}

TEST(RelayAlone, WithoutASharedStoreNothingIsElsewhere) {
    // One node (--store memory): a ticket of another node is no longer waiting, at once, as before.
    OpenCalls open{"in", 10, 60s};
    MountRelay alone{"in", open, nullptr};
    EXPECT_FALSE(alone.elsewhere("another-node"));
    EXPECT_FALSE(alone.elsewhere(alone.node()));
}
