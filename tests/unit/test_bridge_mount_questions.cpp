// mcp::Mount passing on, for every pair of revisions (outer client x inner client), the rest of
// decision 11 of docs/adr/0029-gateway.md: the inner server's roots requests, its questions during a
// prompt and a read, its log messages at the outer caller's level (bounded, never guessed between
// two calls), and on a 2026 inner server the caller's own capabilities; with hostile cases (a
// malformed roots answer, a caller without the capability, a log storm).
#include "client_test_support.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

using client_testing::eventually;
using client_testing::first_text;
using namespace std::chrono_literals;

namespace {

mcp::FormSchema name_form() {
    mcp::FormSchema form;
    form.text("name");
    return form;
}

std::string greeting(mcp::Context& ctx) {
    const auto answer = ctx.elicit("Who are you?", name_form());
    return answer.accepted() ? "Hello " + std::string(answer.content.at("name").as_string()) : "nobody";
}

// A transport that edits what the client sends (a hostile client's answers).
class Tampering : public mcp::ClientTransport {
public:
    Tampering(std::shared_ptr<mcp::ClientTransport> inner, std::function<void(std::string&)> edit)
        : inner_(std::move(inner)), edit_(std::move(edit)) {}
    void open(boost::asio::io_context& io, mcp::TransportEvents events) override {
        inner_->open(io, std::move(events));
    }
    void send(mcp::OutboundMessage message) override {
        edit_(message.text);
        inner_->send(std::move(message));
    }
    bool mirrors_headers() const override { return inner_->mirrors_headers(); }
    bool cancel(const boost::json::value& id) override { return inner_->cancel(id); }
    void answered(const boost::json::value& id) override { inner_->answered(id); }
    void close() override { inner_->close(); }

private:
    std::shared_ptr<mcp::ClientTransport> inner_;
    std::function<void(std::string&)> edit_;
};

// What the outer client declares, and how its transport edits what it sends.
struct Outer {
    bool roots = true;
    bool elicitation = true;
    std::optional<mcp::LogLevel> log_level = mcp::LogLevel::info;
    std::function<void(std::string&)> tamper;
};

}  // namespace

class MountQuestions : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountQuestions() {
        inner.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
            const bool mounted_call =
                call.method == "tools/call" || call.method == "prompts/get" || call.method == "resources/read";
            // A 2026 retry carries inputResponses or requestState: not a call of its own.
            if (mounted_call && !call.params.contains("inputResponses") && !call.params.contains("requestState"))
                ++inner_calls;
            return next();
        });
        inner.tool("where", "Lists the client's roots", [](mcp::ToolContext& ctx) {
            try {
                std::string uris;
                for (const auto& root : ctx.roots()) {
                    if (!uris.empty()) uris += ',';
                    uris += root.uri;
                }
                return uris;
            } catch (const mcp::ClientError& e) {
                return "refused " + std::to_string(e.code()) + ": " + e.what();
            }
        });
        inner.tool("capabilities", "Says what the client declared", [](mcp::ToolContext& ctx) {
            std::string declared;
            for (const char* name : {"elicitation", "sampling", "roots"}) {
                if (!ctx.client_supports(name)) continue;
                if (!declared.empty()) declared += ',';
                declared += name;
            }
            return declared;
        });
        inner.tool("chatty", "Logs at three levels", [](mcp::ToolContext& ctx) {
            ctx.log(mcp::LogLevel::debug, "one", "inner-logger");
            ctx.log(mcp::LogLevel::info, "two", "inner-logger");
            ctx.log(mcp::LogLevel::warning, boost::json::object{{"three", 3}}, "inner-logger");
            return std::string("done");
        });
        inner.tool("storm", "Logs far too much", [](mcp::ToolContext& ctx) {
            for (int i = 0; i < 3 * kPassedOnLogMessages; ++i) ctx.info("again");
            return std::string("done");
        });
        inner.tool("hold", "Waits for the test to release it", [this] {
            held = true;
            released.wait(false);
            return std::string("released");
        });
        inner.tool("all_three", "Asks for a name, a completion and the roots in one round", [](mcp::ToolContext& ctx) {
            mcp::SamplingRequest poem;
            poem.messages.push_back({mcp::Role::user, mcp::text("A poem")});
            poem.key = "poem";
            const auto answers = ctx.ask(
                {mcp::ElicitRequest{"Name?", name_form(), "name"}, std::move(poem), mcp::RootsRequest{"roots"}});
            return std::string(std::get<mcp::ElicitResult>(answers[0]).content.at("name").as_string()) + " / " +
                   std::get<mcp::SamplingResult>(answers[1]).text() + " / " +
                   std::get<std::vector<mcp::Root>>(answers[2]).at(0).uri;
        });
        inner.prompt("greet", "Greets whoever answers", [](mcp::PromptContext& ctx) { return greeting(ctx); });
        inner.resource("doc://letter", {.name = "letter", .mime_type = "text/plain"},
                       [](mcp::ResourceContext& ctx) { return greeting(ctx); });
    }

    static constexpr int kPassedOnLogMessages = 1'000;  // per call (MountedCall::kMaxLogMessages)

    mcp::Client& start(const Outer& how = {}) {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
        mcp::ClientOptions options;
        options.protocol_version = std::get<0>(GetParam());
        if (how.roots) options.roots = std::vector<mcp::Root>{{"file:///work", "work"}, {"file:///home", "home"}};
        if (how.elicitation) {
            options.handlers.elicitation = [this](const mcp::Elicitation&) {
                ++outer_elicitations;
                return mcp::ElicitResult{.action = mcp::ElicitAction::accept, .content = {{"name", "Ada"}}};
            };
        }
        options.handlers.sampling = [](const mcp::SamplingRequest&) {
            mcp::SamplingResult result;
            result.content.emplace_back(mcp::text("hi"));
            return result;
        };
        options.handlers.log = [this](const mcp::LogMessage& message) {
            std::lock_guard lock(mutex);
            logs.push_back(message);
        };
        options.log_level = how.log_level;
        std::shared_ptr<mcp::ClientTransport> transport = mcp::in_process(outer);
        if (how.tamper) transport = std::make_shared<Tampering>(std::move(transport), how.tamper);
        client = std::make_unique<mcp::Client>(std::move(transport), std::move(options));
        client->connect();
        return *client;
    }

    bool outer_2026() const { return std::get<0>(GetParam()) == "2026-07-28"; }
    bool inner_2026() const { return std::get<1>(GetParam()) == "2026-07-28"; }

    std::size_t log_count() {
        std::lock_guard lock(mutex);
        return logs.size();
    }

    void release() {
        released = true;
        released.notify_all();
    }

    void TearDown() override {
        release();
        mounted.reset();
        if (client) client->close();
    }

    std::atomic<int> inner_calls{0};
    std::atomic<int> outer_elicitations{0};
    std::atomic<bool> held{false};
    std::atomic<bool> released{false};
    std::mutex mutex;
    std::vector<mcp::LogMessage> logs;
    mcp::Server inner{{.name = "inner", .version = "1"}};
    mcp::Server outer{{.name = "outer", .version = "1"}, {.validate_tool_output = false}};
    std::shared_ptr<mcp::Mount> mounted;
    std::unique_ptr<mcp::Client> client;
};

// ---- Roots.

TEST_P(MountQuestions, TheInnerServerHearsTheCallersRoots) {
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_where")), "file:///work,file:///home");
    EXPECT_EQ(inner_calls.load(), 1);  // one inner call, however many outer rounds
}

TEST_P(MountQuestions, ACallerWithoutRootsIsRefusedAsTheInnerServerWouldRefuseIt) {
    auto& c = start({.roots = false});
    if (!inner_2026()) {
        // A 2025 inner server hears the caller's refusal.
        const auto text = first_text(c.call_tool("in_where"));
        EXPECT_NE(text.find("refused -32601"), std::string::npos) << text;
    } else if (outer_2026()) {
        // A 2026 inner server refuses the caller's capabilities itself: -32021, passed on.
        try {
            c.call_tool("in_where");
            ADD_FAILURE() << "no error";
        } catch (const mcp::Error& e) {
            EXPECT_EQ(e.code(), mcp::error_code::missing_required_client_capability) << e.message();
        }
    } else {
        EXPECT_TRUE(c.call_tool("in_where").is_error);  // as the 2025 wire answers a missing capability
    }
    EXPECT_EQ(inner_calls.load(), 1);
}

TEST_P(MountQuestions, AMalformedRootsAnswerNeverReachesTheInnerServerAsRoots) {
    // The caller's answer says roots is not a list of roots (its 2025 response, its 2026 retry).
    auto& c = start({.tamper = [](std::string& text) {
        for (auto at = text.find(R"("roots":[)"); at != std::string::npos; at = text.find(R"("roots":[)", at + 1))
            text.replace(at, 9, R"("roots":[1,)");
    }});
    try {
        const auto text = first_text(c.call_tool("in_where"));
        EXPECT_EQ(text.find("file://"), std::string::npos) << text;
        EXPECT_NE(text.find("refused"), std::string::npos) << text;
    } catch (const mcp::Error& e) {
        if (outer_2026()) {
            EXPECT_EQ(e.code(), mcp::error_code::invalid_params) << e.message();
        }
    }
    EXPECT_EQ(inner_calls.load(), 1);
    TearDown();
    EXPECT_EQ(first_text(start().call_tool("in_where")), "file:///work,file:///home");  // the mount is fine
}

TEST_P(MountQuestions, ARoundOfThreeQuestionsReachesA2026CallerAsOneRound) {
    std::vector<std::size_t> rounds;  // the answers each outer retry carries
    outer.intercept([&](const mcp::Invocation& call, const mcp::Proceed& next) {
        if (const auto* responses = call.params.if_contains("inputResponses")) {
            std::lock_guard lock(mutex);
            rounds.push_back(responses->as_object().size());
        }
        return next();
    });
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_all_three")), "Ada / hi / file:///work");
    EXPECT_EQ(inner_calls.load(), 1);
    std::lock_guard lock(mutex);
    // A 2026 inner server names its three requests at once, and so does the mount; a 2025 one
    // sends them as requests, which the mount puts to the caller as they come.
    if (outer_2026() && inner_2026()) {
        EXPECT_EQ(rounds, std::vector<std::size_t>{3});
    } else if (!outer_2026()) {
        EXPECT_TRUE(rounds.empty());
    }
}

// ---- Questions during a prompt and a read.

TEST_P(MountQuestions, APromptsQuestionReachesTheCaller) {
    auto& c = start();
    const auto result = c.get_prompt("in_greet");
    ASSERT_EQ(result.messages.size(), 1U);
    EXPECT_EQ(std::get<mcp::TextContent>(result.messages[0].content).text, "Hello Ada");
    EXPECT_EQ(outer_elicitations.load(), 1);
    EXPECT_EQ(inner_calls.load(), 1);
}

TEST_P(MountQuestions, AReadsQuestionReachesTheCaller) {
    auto& c = start();
    const auto result = c.read_resource("doc://in/letter");
    ASSERT_EQ(result.contents.size(), 1U);
    EXPECT_EQ(std::get<mcp::TextResourceContents>(result.contents[0]).text, "Hello Ada");
    EXPECT_EQ(outer_elicitations.load(), 1);
    EXPECT_EQ(inner_calls.load(), 1);
}

// ---- The caller's capabilities.

TEST_P(MountQuestions, A2026InnerServerSeesTheCallersCapabilities) {
    auto& c = start({.roots = false, .elicitation = false});
    // A 2025 inner session was declared once, with all three, for every caller.
    EXPECT_EQ(first_text(c.call_tool("in_capabilities")), inner_2026() ? "sampling" : "elicitation,sampling,roots");
    TearDown();
    EXPECT_EQ(first_text(start().call_tool("in_capabilities")), "elicitation,sampling,roots");
}

// ---- Log messages.

TEST_P(MountQuestions, LogMessagesReachTheCallerAtItsLevel) {
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_chatty")), "done");
    // The call's own log messages, at the caller's level (info) and above, as the inner server sent them.
    EXPECT_TRUE(eventually([&] { return log_count() == 2; })) << log_count();
    std::lock_guard lock(mutex);
    ASSERT_EQ(logs.size(), 2U);
    EXPECT_EQ(logs[0].data.as_string(), "two");
    EXPECT_EQ(logs[0].logger, "inner-logger");
    EXPECT_EQ(logs[1].level, mcp::LogLevel::warning);
    EXPECT_EQ(logs[1].data.at("three").as_int64(), 3);
}

// A 2026 caller asks for a level per request; a 2025 session has the server's default level.
class MountQuestionsModernCaller : public MountQuestions {};

TEST_P(MountQuestionsModernCaller, ACallerThatAsksForNoLogMessagesGetsNone) {
    auto& c = start({.log_level = std::nullopt});
    EXPECT_EQ(first_text(c.call_tool("in_chatty")), "done");
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(log_count(), 0U);
}

TEST_P(MountQuestions, ALogStormIsBoundedPerCall) {
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_storm")), "done");
    EXPECT_TRUE(eventually([&] { return log_count() >= static_cast<std::size_t>(kPassedOnLogMessages); }));
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(log_count(), static_cast<std::size_t>(kPassedOnLogMessages));
}

TEST_P(MountQuestions, WithTwoCallsInFlightNoCallerGetsTheOthersLogMessages) {
    auto& c = start();
    auto holding = std::async(std::launch::async, [&] { return c.call_tool("in_hold"); });
    ASSERT_TRUE(eventually([&] { return held.load(); }));
    EXPECT_EQ(first_text(c.call_tool("in_chatty")), "done");
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(log_count(), 0U);  // neither call can be told from the other: the mount's own log
    release();
    EXPECT_EQ(first_text(holding.get()), "released");
}

TEST_P(MountQuestions, WithTwoCallsInFlightA2026InnerServersLogMessagesGoToTheOneCallThatAskedForThem) {
    auto& c = start();
    // Another caller, who asks for no log messages (on 2025, its session has the server's default).
    mcp::ClientOptions quiet_options;
    quiet_options.protocol_version = std::get<0>(GetParam());
    mcp::Client quiet(mcp::in_process(outer), std::move(quiet_options));
    quiet.connect();
    auto holding = std::async(std::launch::async, [&] { return quiet.call_tool("in_hold"); });
    ASSERT_TRUE(eventually([&] { return held.load(); }));
    EXPECT_EQ(first_text(c.call_tool("in_chatty")), "done");
    // Only the chatty call asked a 2026 inner server for them: they can be no other call's.
    const std::size_t expected = inner_2026() && outer_2026() ? 2 : 0;
    EXPECT_TRUE(eventually([&] { return log_count() == expected; }));
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(log_count(), expected);
    release();
    EXPECT_EQ(first_text(holding.get()), "released");
    quiet.close();
}

namespace {

std::string revisions(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& param_info) {
    auto name = "outer" + std::get<0>(param_info.param) + "_inner" + std::get<1>(param_info.param);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Revisions, MountQuestions,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions);
INSTANTIATE_TEST_SUITE_P(Revisions, MountQuestionsModernCaller,
                         ::testing::Combine(::testing::Values("2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions);
