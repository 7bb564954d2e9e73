// Asking the client, through the real core: the 2025 mailbox rendezvous and the 2026
// multi-round-trip replay, with their failure modes and the sealed requestState.
#include "server_fixture.hpp"

#include <boost/json/serialize.hpp>

#include <atomic>
#include <future>
#include <thread>

using namespace testing_support;

namespace {

boost::json::object envelope(boost::json::object caps) {
    return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

boost::json::object all_caps() {
    return {
        {"elicitation", boost::json::object()}, {"sampling", boost::json::object()}, {"roots", boost::json::object()}};
}

mcp::FormSchema name_form() {
    mcp::FormSchema form;
    form.text("name");
    return form;
}

// Collects the messages of one asynchronously handled request.
struct Pending {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<boost::json::value> messages;
    bool done = false;

    boost::json::value wait_for(std::function<bool(const boost::json::value&)> match) {
        std::unique_lock lock(mutex);
        boost::json::value found;
        changed.wait_for(lock, std::chrono::seconds(5), [&] {
            for (const auto& m : messages) {
                if (match(m)) {
                    found = m;
                    return true;
                }
            }
            return false;
        });
        return found;
    }
    void wait_done() {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, std::chrono::seconds(5), [&] { return done; });
    }
};

bool is_method(const boost::json::value& m, std::string_view method) {
    const auto* field = m.as_object().if_contains("method");
    return field && field->is_string() && field->get_string() == boost::json::string_view(method.data(), method.size());
}

class Legacy : public ServerTest {
protected:
    Legacy()
        : ServerTest([] {
              mcp::ServerOptions o;
              o.client_requests.elicitation_timeout = std::chrono::milliseconds(300);
              return o;
          }()) {}

    void SetUp() override {
        server.tool("ask_name", "Asks the user's name", [this](mcp::ToolContext& ctx) {
            ++runs;
            auto answer = ctx.elicit("Your name?", name_form());
            return answer.accepted() ? "Hello " + std::string(answer.content.at("name").as_string())
                                     : std::string("no");
        });
        server.tool("list_roots", "Roots", [](mcp::ToolContext& ctx) { return std::to_string(ctx.roots().size()); });
        server.tool({.name = "ask_name_replayable", .description = "Asks the user's name", .replayable = true},
                    [this](mcp::ToolContext& ctx) {
                        ++runs;
                        auto answer = ctx.elicit("Your name?", name_form());
                        return answer.accepted() ? "Hello " + std::string(answer.content.at("name").as_string())
                                                 : std::string("no");
                    });
        conn = std::make_unique<mcp::LocalConnection>(server);
        result("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", all_caps()}});
    }

    std::shared_ptr<Pending> start(std::string_view tool, const boost::json::value& id = "call-1") {
        auto pending = std::make_shared<Pending>();
        conn->send_async(
            request(id, "tools/call", {{"name", tool}}),
            [pending](const boost::json::value& m) {
                std::lock_guard lock(pending->mutex);
                pending->messages.push_back(m);
                pending->changed.notify_all();
            },
            [pending] {
                std::lock_guard lock(pending->mutex);
                pending->done = true;
                pending->changed.notify_all();
            });
        return pending;
    }

    static boost::json::value answer(const boost::json::value& request, boost::json::value result) {
        return boost::json::object{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", std::move(result)}};
    }

    std::atomic<int> runs{0};
};

}  // namespace

TEST_F(Legacy, TheAnswerReachesTheWaitingHandler) {
    auto pending = start("ask_name");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    ASSERT_TRUE(ask.is_object());
    EXPECT_TRUE(ask.at("id").is_string());
    EXPECT_EQ(ask.at("params").at("requestedSchema").at("properties").at("name").at("type"), "string");
    EXPECT_TRUE(conn->send(answer(ask, {{"action", "accept"}, {"content", {{"name", "Ada"}}}})).empty());
    auto response = pending->wait_for([](const auto& m) { return m.as_object().contains("result"); });
    EXPECT_EQ(response.at("result").at("content").at(0).at("text"), "Hello Ada");
    EXPECT_EQ(runs.load(), 1);
}

TEST_F(Legacy, ForgedAndForeignAnswersAreDropped) {
    auto pending = start("ask_name");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    // An id this server never sent, and the right id delivered through another session.
    conn->send(boost::json::object{{"jsonrpc", "2.0"}, {"id", "forged"}, {"result", {{"action", "accept"}}}});
    mcp::LocalConnection other(server);
    other.send(answer(ask, {{"action", "accept"}, {"content", {{"name", "Mallory"}}}}));
    // The handler still waits, then times out: the client is told, the tool says why.
    auto cancelled = pending->wait_for([](const auto& m) { return is_method(m, "notifications/cancelled"); });
    ASSERT_TRUE(cancelled.is_object());
    EXPECT_EQ(cancelled.at("params").at("requestId"), ask.at("id"));
    auto response = pending->wait_for([](const auto& m) { return m.as_object().contains("result"); });
    EXPECT_EQ(response.at("result").at("isError"), true);
    // A late answer after the timeout is dropped too.
    EXPECT_TRUE(conn->send(answer(ask, {{"action", "accept"}, {"content", {{"name", "Late"}}}})).empty());
}

TEST_F(Legacy, AClientErrorReachesTheHandlerAtOnce) {
    auto pending = start("ask_name");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    conn->send(boost::json::object{
        {"jsonrpc", "2.0"}, {"id", ask.at("id")}, {"error", {{"code", -1}, {"message", "user closed the dialog"}}}});
    auto response = pending->wait_for([](const auto& m) { return m.as_object().contains("result"); });
    EXPECT_EQ(response.at("result").at("isError"), true);
    EXPECT_NE(boost::json::serialize(response).find("user closed the dialog"), std::string::npos);
}

TEST_F(Legacy, AClosedSessionEndsTheWaitAtOnce) {
    auto pending = start("ask_name");
    pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    const auto started = std::chrono::steady_clock::now();
    conn->session()->close();
    pending->wait_done();
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(250));  // before the 300 ms timeout
    auto response = pending->wait_for([](const auto& m) { return m.as_object().contains("result"); });
    EXPECT_EQ(response.at("result").at("isError"), true);
}

TEST_F(Legacy, RootsAreCachedUntilTheClientSaysTheyChanged) {
    auto first = start("list_roots", 1);
    auto ask = first->wait_for([](const auto& m) { return is_method(m, "roots/list"); });
    conn->send(answer(ask, {{"roots", {{{"uri", "file:///a"}}, {{"uri", "file:///b"}}}}}));
    EXPECT_EQ(first->wait_for([](const auto& m) { return m.as_object().contains("result"); })
                  .at("result")
                  .at("content")
                  .at(0)
                  .at("text"),
              "2");
    EXPECT_EQ(first_text(call_tool("list_roots", {})), "2");  // no second roots/list
    conn->send(notification("notifications/roots/list_changed"));
    auto again = start("list_roots", 3);
    EXPECT_TRUE(again->wait_for([](const auto& m) { return is_method(m, "roots/list"); }).is_object());
    conn->session()->close();
}

TEST_F(Legacy, AMissingCapabilityIsAnErrorResultAndNothingIsSent) {
    mcp::LocalConnection bare(server);
    bare.send(request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", boost::json::object()}}));
    auto messages = bare.send(request(2, "tools/call", {{"name", "ask_name"}}));
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].at("result").at("isError"), true);
    EXPECT_NE(boost::json::serialize(messages[0]).find("elicitation"), std::string::npos);
}

TEST_F(Legacy, AnInlineHandlerCannotWaitForTheClientAndNothingIsSent) {
    server.tool({.name = "ask_inline", .description = "Elicits, but was declared runs_inline", .runs_inline = true},
                [](mcp::ToolContext& ctx) { return ctx.elicit("Your name?", name_form()).accepted() ? "yes" : "no"; });
    auto messages = conn->send(request(5, "tools/call", {{"name", "ask_inline"}}));
    ASSERT_EQ(messages.size(), 1u) << "no elicitation/create goes out";
    EXPECT_EQ(messages[0].at("result").at("isError"), true);
    EXPECT_NE(boost::json::serialize(messages[0]).find("runs_inline"), std::string::npos)
        << boost::json::serialize(messages[0]);
}

namespace {

// Replayable handlers on the 2025 wire: a call that waits for the client parks as a record, and the
// handler runs again once the answers are in (docs/adr/0015-parked-calls.md). One handler thread in
// all, so a call that held its thread while waiting would stop every other one.
class Replaying : public Legacy {
protected:
    void SetUp() override {
        Legacy::SetUp();
        server.tool({.name = "ask_twice", .description = "A form and the roots, in one round", .replayable = true},
                    [this](mcp::ToolContext& ctx) {
                        ++runs;
                        auto answers = ctx.ask(
                            {mcp::ElicitRequest{"Your name?", name_form(), "name"}, mcp::RootsRequest{"roots"}});
                        const auto& form = std::get<mcp::ElicitResult>(answers[0]);
                        const auto& roots = std::get<std::vector<mcp::Root>>(answers[1]);
                        return std::string(form.content.at("name").as_string()) + " with " +
                               std::to_string(roots.size()) + " roots";
                    });
        server.tool(
            {.name = "ask_inline",
             .description = "Elicits on the transport's thread",
             .runs_inline = true,
             .replayable = true},
            [](mcp::ToolContext& ctx) { return ctx.elicit("Your name?", name_form()).accepted() ? "yes" : "no"; });
        server.tool("echo", "Echoes", [](const boost::json::object& args) { return boost::json::serialize(args); });
    }

    static mcp::ServerOptions one_thread() {
        mcp::ServerOptions o;
        o.client_requests.elicitation_timeout = std::chrono::milliseconds(300);
        o.execution.core_threads = 1;
        o.execution.max_threads = 1;
        return o;
    }

    Replaying() { server.configure(one_thread()); }

    static bool has_result(const boost::json::value& m) { return m.as_object().contains("result"); }
};

}  // namespace

TEST_F(Replaying, ParkedCallsHoldNoThreadAndRunAgainWithTheAnswer) {
    std::vector<std::shared_ptr<Pending>> calls;
    std::vector<boost::json::value> asks;
    for (int i = 0; i < 5; ++i) {
        calls.push_back(start("ask_name_replayable", boost::json::value("parked-" + std::to_string(i))));
        asks.push_back(calls.back()->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); }));
        ASSERT_TRUE(asks.back().is_object()) << "call " << i << " was not asked: a parked call holds the only thread";
    }
    EXPECT_EQ(runs.load(), 5);
    // The only handler thread is free for other calls while five wait.
    EXPECT_EQ(first_text(call_tool("echo", {{"x", 1}})), R"({"x":1})");

    for (int i = 0; i < 5; ++i) {
        conn->send(answer(asks[i], {{"action", "accept"}, {"content", {{"name", "Ada " + std::to_string(i)}}}}));
        auto response = calls[i]->wait_for(has_result);
        ASSERT_TRUE(response.is_object());
        EXPECT_EQ(response.at("result").at("content").at(0).at("text").as_string(), "Hello Ada " + std::to_string(i));
    }
    EXPECT_EQ(runs.load(), 10) << "each handler ran once to ask and once with the answer";
    // A spent id is answered again: nothing happens.
    EXPECT_TRUE(conn->send(answer(asks[0], {{"action", "accept"}, {"content", {{"name", "Again"}}}})).empty());
    EXPECT_EQ(runs.load(), 10);
}

namespace {

// A node parks at most --max-parked-calls calls at once (here two).
class ReplayingWithTwoPlaces : public Replaying {
protected:
    ReplayingWithTwoPlaces() {
        auto o = one_thread();
        o.client_requests.max_parked_calls = 2;
        server.configure(o);
    }
};

}  // namespace

TEST_F(ReplayingWithTwoPlaces, ACallBeyondTheLimitIsRefusedAndASettledCallFreesItsPlace) {
    const auto ask = [](const auto& m) { return is_method(m, "elicitation/create"); };
    auto first = start("ask_name_replayable", "first");
    auto first_ask = first->wait_for(ask);
    auto second = start("ask_name_replayable", "second");
    ASSERT_TRUE(first_ask.is_object() && second->wait_for(ask).is_object());

    auto third = start("ask_name_replayable", "third");
    auto refused = third->wait_for([](const auto& m) { return m.as_object().contains("error"); });
    ASSERT_TRUE(refused.is_object()) << "a third parked call must be refused";
    EXPECT_NE(boost::json::serialize(refused).find("too many calls wait"), std::string::npos)
        << boost::json::serialize(refused);

    conn->send(answer(first_ask, {{"action", "accept"}, {"content", {{"name", "Ada"}}}}));
    ASSERT_TRUE(first->wait_for(has_result).is_object());
    auto fourth = start("ask_name_replayable", "fourth");
    EXPECT_TRUE(fourth->wait_for(ask).is_object()) << "the answered call gave its place back";
    conn->session()->close();
}

TEST_F(Replaying, ATimeoutReachesTheHandlerWhereItAsked) {
    auto pending = start("ask_name_replayable");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    ASSERT_TRUE(ask.is_object());
    auto cancelled = pending->wait_for([](const auto& m) { return is_method(m, "notifications/cancelled"); });
    ASSERT_TRUE(cancelled.is_object()) << "the client is told to drop the form";
    EXPECT_EQ(cancelled.at("params").at("requestId"), ask.at("id"));
    auto response = pending->wait_for(has_result);
    ASSERT_TRUE(response.is_object());
    EXPECT_EQ(response.at("result").at("isError"), true);
    EXPECT_NE(boost::json::serialize(response).find("in time"), std::string::npos) << boost::json::serialize(response);
    EXPECT_EQ(runs.load(), 2);
    // Too late: dropped.
    EXPECT_TRUE(conn->send(answer(ask, {{"action", "accept"}, {"content", {{"name", "Late"}}}})).empty());
}

TEST_F(Replaying, AClientErrorReachesTheHandlerWhereItAsked) {
    auto pending = start("ask_name_replayable");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    conn->send(boost::json::object{
        {"jsonrpc", "2.0"}, {"id", ask.at("id")}, {"error", {{"code", -1}, {"message", "user closed the dialog"}}}});
    auto response = pending->wait_for(has_result);
    EXPECT_EQ(response.at("result").at("isError"), true);
    EXPECT_NE(boost::json::serialize(response).find("user closed the dialog"), std::string::npos);
    EXPECT_EQ(runs.load(), 2);
}

TEST_F(Replaying, ACancelledCallEndsWithoutAResponseAndDoesNotRunAgain) {
    auto pending = start("ask_name_replayable", "to-cancel");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    conn->send(notification("notifications/cancelled", {{"requestId", "to-cancel"}, {"reason", "changed my mind"}}));
    pending->wait_done();
    {
        std::lock_guard lock(pending->mutex);
        EXPECT_TRUE(pending->done);
        for (const auto& m : pending->messages) EXPECT_FALSE(has_result(m)) << boost::json::serialize(m);
    }
    EXPECT_EQ(runs.load(), 1);
    EXPECT_TRUE(conn->send(answer(ask, {{"action", "accept"}, {"content", {{"name", "Late"}}}})).empty());
    EXPECT_EQ(runs.load(), 1);
    // The id is free again.
    auto again = start("ask_name_replayable", "to-cancel");
    EXPECT_TRUE(again->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); }).is_object());
}

TEST_F(Replaying, AClosedSessionDropsItsParkedCalls) {
    std::vector<std::shared_ptr<Pending>> calls;
    for (int i = 0; i < 20; ++i) {
        calls.push_back(start("ask_name_replayable", i));
        ASSERT_TRUE(
            calls.back()->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); }).is_object());
    }
    conn->session()->close();
    for (auto& call : calls) {
        call->wait_done();
        std::lock_guard lock(call->mutex);
        EXPECT_TRUE(call->done);
    }
    EXPECT_EQ(runs.load(), 20);
}

TEST_F(Replaying, SeveralRequestsOfOneRoundGoOutTogether) {
    auto pending = start("ask_twice");
    auto form = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    auto roots = pending->wait_for([](const auto& m) { return is_method(m, "roots/list"); });
    ASSERT_TRUE(form.is_object());
    ASSERT_TRUE(roots.is_object());
    conn->send(answer(roots, {{"roots", {{{"uri", "file:///a"}}}}}));
    EXPECT_EQ(runs.load(), 1) << "the handler waits for every answer of its round";
    conn->send(answer(form, {{"action", "accept"}, {"content", {{"name", "Ada"}}}}));
    auto response = pending->wait_for(has_result);
    EXPECT_EQ(response.at("result").at("content").at(0).at("text"), "Ada with 1 roots");
    EXPECT_EQ(runs.load(), 2);
}

TEST_F(Replaying, AnInlineHandlerMayAskWhenItIsReplayable) {
    auto pending = start("ask_inline");
    auto ask = pending->wait_for([](const auto& m) { return is_method(m, "elicitation/create"); });
    ASSERT_TRUE(ask.is_object());
    conn->send(answer(ask, {{"action", "accept"}, {"content", {{"name", "Ada"}}}}));
    EXPECT_EQ(pending->wait_for(has_result).at("result").at("content").at(0).at("text"), "yes");
}

namespace {

class Modern : public ServerTest {
protected:
    Modern() : ServerTest(options()) {}
    static mcp::ServerOptions options() {
        mcp::ServerOptions o;
        o.keys = mcp::KeyRing::parse("k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
        o.client_requests.request_state_ttl = std::chrono::milliseconds(500);
        return o;
    }

    void SetUp() override {
        server.tool("two_steps", "Asks twice", [this](const boost::json::object& args, mcp::ToolContext& ctx) {
            ++runs;  // code before an unanswered request runs again on each round
            auto first = ctx.elicit("Name?", name_form(), "step1");
            auto second = ctx.sample_text("Greet " + std::string(first.content.at("name").as_string()), 50, "step2");
            return second + (args.contains("suffix") ? std::string(args.at("suffix").as_string()) : "");
        });
        server.tool("together", "Asks three things in one round", [](mcp::ToolContext& ctx) {
            auto answers =
                ctx.ask({mcp::ElicitRequest{"Name?", name_form(), "name"},
                         mcp::SamplingRequest{{}, "", {}, 10, {}, {}, {}, "text"}, mcp::RootsRequest{"roots"}});
            return std::to_string(answers.size());
        });
        server.tool("swallows", "Catches everything", [](mcp::ToolContext& ctx) {
            try {
                ctx.elicit("Name?", name_form(), "name");
            } catch (...) {}
            return std::string("carried on");
        });
        conn = std::make_unique<mcp::LocalConnection>(server);
    }

    boost::json::value call(boost::json::object params, boost::json::object caps = all_caps(),
                            std::shared_ptr<const mcp::Principal> principal = nullptr) {
        params["_meta"] = envelope(std::move(caps));
        std::promise<boost::json::value> reply;
        struct Sink : mcp::CallSink {
            std::promise<boost::json::value>* out;
            bool send(boost::json::value) override { return true; }
            void complete(std::optional<boost::json::value> r) override {
                out->set_value(r ? *r : boost::json::value());
            }
        };
        auto sink = std::make_shared<Sink>();
        sink->out = &reply;
        server.handle(request(++id_, "tools/call", std::move(params)),
                      mcp::Inbound{nullptr, {}, nullptr, std::move(principal), {}}, sink);
        return reply.get_future().get();
    }

    static boost::json::object accept(std::string name) {
        return {{"action", "accept"}, {"content", {{"name", std::move(name)}}}};
    }
    static boost::json::object sampled(std::string text) {
        return {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", std::move(text)}}}, {"model", "m"}};
    }
    static int code(const boost::json::value& r) {
        return r.as_object().contains("error") ? static_cast<int>(r.at("error").at("code").as_int64()) : 0;
    }

    std::atomic<int> runs{0};
    int id_ = 0;
};

}  // namespace

TEST_F(Modern, RoundsReplayTheHandlerWithTheAnswersSoFar) {
    auto r1 = call({{"name", "two_steps"}}).at("result");
    EXPECT_EQ(r1.at("resultType"), "input_required");
    ASSERT_TRUE(r1.at("inputRequests").as_object().contains("step1"));
    EXPECT_EQ(r1.at("inputRequests").at("step1").at("method"), "elicitation/create");
    const auto state1 = r1.at("requestState");

    auto r2 = call({{"name", "two_steps"}, {"inputResponses", {{"step1", accept("Ada")}}}, {"requestState", state1}})
                  .at("result");
    EXPECT_EQ(r2.at("resultType"), "input_required");
    EXPECT_EQ(r2.at("inputRequests").at("step2").at("method"), "sampling/createMessage");
    EXPECT_NE(r2.at("requestState"), state1);

    auto r3 = call({{"name", "two_steps"},
                    {"inputResponses", {{"step2", sampled("Hi Ada")}}},
                    {"requestState", r2.at("requestState")}})
                  .at("result");
    EXPECT_EQ(r3.at("resultType"), "complete");
    EXPECT_EQ(r3.at("content").at(0).at("text"), "Hi Ada");
    EXPECT_EQ(runs.load(), 3);  // one run per round
}

TEST_F(Modern, SeveralInputsInOneRound) {
    auto r1 = call({{"name", "together"}}).at("result");
    EXPECT_EQ(r1.at("inputRequests").as_object().size(), 3u);
    auto r2 = call({{"name", "together"},
                    {"requestState", r1.at("requestState")},
                    {"inputResponses",
                     {{"name", accept("A")}, {"text", sampled("t")}, {"roots", {{"roots", boost::json::array()}}}}}})
                  .at("result");
    EXPECT_EQ(r2.at("content").at(0).at("text"), "3");
}

TEST_F(Modern, ASwallowedSignalStillAsks) {
    auto r = call({{"name", "swallows"}}).at("result");
    EXPECT_EQ(r.at("resultType"), "input_required");
}

TEST_F(Modern, FirstRoundAnswersWithoutStateAndUnknownKeysAreAccepted) {
    auto r = call({{"name", "two_steps"},
                   {"inputResponses", {{"step1", accept("Bo")}, {"step2", sampled("ok")}, {"junk", 1}}}})
                 .at("result");
    EXPECT_EQ(r.at("content").at(0).at("text"), "ok");
}

TEST_F(Modern, TamperedForeignOrStaleStateIsRefused) {
    auto r1 = call({{"name", "two_steps"}}).at("result");
    const std::string state(r1.at("requestState").as_string());
    auto retry = [&](boost::json::object params, std::shared_ptr<const mcp::Principal> who = nullptr) {
        params["inputResponses"] = {{"step1", accept("Ada")}};
        return code(call(std::move(params), all_caps(), std::move(who)));
    };
    using mcp::error_code::invalid_params;
    for (std::size_t i = 0; i < state.size(); i += 7) {
        std::string flipped = state;
        flipped[i] = flipped[i] == 'A' ? 'B' : 'A';
        EXPECT_EQ(retry({{"name", "two_steps"}, {"requestState", flipped}}), invalid_params) << i;
    }
    EXPECT_EQ(retry({{"name", "two_steps"}, {"requestState", state + "-TAMPERED"}}), invalid_params);
    EXPECT_EQ(retry({{"name", "two_steps"}, {"requestState", state}, {"arguments", {{"suffix", "!"}}}}),
              invalid_params);
    EXPECT_EQ(retry({{"name", "together"}, {"requestState", state}}), invalid_params);
    auto alice = std::make_shared<const mcp::Principal>(mcp::Principal{"alice", {}, {}});
    EXPECT_EQ(retry({{"name", "two_steps"}, {"requestState", state}}, alice), invalid_params);
    EXPECT_EQ(retry({{"name", "two_steps"}, {"requestState", state}}), 0);  // the untouched state works
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    EXPECT_EQ(retry({{"name", "two_steps"}, {"requestState", state}}), invalid_params);  // expired
}

TEST_F(Modern, MalformedAnswersAndMissingCapabilities) {
    auto r = call({{"name", "two_steps"}, {"inputResponses", {{"step1", 12345}}}});
    EXPECT_EQ(code(r), mcp::error_code::invalid_params);
    EXPECT_EQ(code(call({{"name", "two_steps"}, {"inputResponses", "nope"}})), mcp::error_code::invalid_params);
    r = call({{"name", "two_steps"}}, {{"sampling", boost::json::object()}});
    EXPECT_EQ(code(r), mcp::error_code::missing_required_client_capability);
    EXPECT_EQ(boost::json::serialize(r.at("error").at("data")), R"({"requiredCapabilities":{"elicitation":{}}})");
}

TEST(KeyRotation, StateSealedByARotatedOutKeyIsStillAccepted) {
    auto make = [](const std::string& keys) {
        mcp::ServerOptions o;
        o.keys = mcp::KeyRing::parse(keys);
        auto server = std::make_unique<mcp::Server>(mcp::Implementation{"rot", "1"}, o);
        server->tool("ask", "Asks", [](mcp::ToolContext& ctx) {
            return ctx.elicit("Name?", name_form(), "n").accepted() ? "yes" : "no";
        });
        return server;
    };
    auto send = [](mcp::Server& server, boost::json::object params) {
        params["_meta"] = envelope(all_caps());
        mcp::LocalConnection c(server);
        return c.send(request(1, "tools/call", std::move(params))).back();
    };
    const std::string k1 = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    const std::string k2 = "k2:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";
    auto before = make(k1);
    auto state = send(*before, {{"name", "ask"}}).at("result").at("requestState");
    boost::json::object retry{{"name", "ask"},
                              {"requestState", state},
                              {"inputResponses", {{"n", {{"action", "accept"}, {"content", boost::json::object()}}}}}};
    auto rotated = make(k2 + "\n" + k1);
    EXPECT_EQ(send(*rotated, retry).at("result").at("content").at(0).at("text"), "yes");
    auto forgotten = make(k2);
    EXPECT_EQ(send(*forgotten, retry).at("error").at("code"), mcp::error_code::invalid_params);
}
