// mcp::Mount passing the inner server's elicitation and sampling to the outer client, for every
// pair of revisions (outer client x inner client): accepted, declined and cancelled forms, sampling,
// several requests in one call, a 2026 outer client's rounds without a second inner call, a request
// while two calls are in flight, a retry whose waiting call is gone, an outer client without the
// capability; and FormSchema::from_json on hostile schemas (docs/adr/0029-gateway.md, decision 11).
#include "client_test_support.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

using client_testing::eventually;
using client_testing::first_text;

namespace {

std::string answer_text(const mcp::ElicitResult& answer) {
    switch (answer.action) {
        case mcp::ElicitAction::accept: return "Hello " + std::string(answer.content.at("name").as_string());
        case mcp::ElicitAction::decline: return "declined";
        case mcp::ElicitAction::cancel: return "cancelled";
    }
    return "?";
}

mcp::FormSchema name_form() {
    mcp::FormSchema form;
    form.text("name").title("Your name");
    form.integer("age").optional();
    return form;
}

}  // namespace

class MountRequests : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountRequests() {
        // First rounds of tools/call: a 2026 retry carries inputResponses or requestState.
        inner.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
            if (call.method == "tools/call" && !call.params.contains("inputResponses") &&
                !call.params.contains("requestState")) {
                ++inner_calls;
            }
            return next();
        });
        inner.tool("ask", "Asks for a name", [](mcp::ToolContext& ctx) {
            try {
                return answer_text(ctx.elicit("Who are you?", name_form()));
            } catch (const mcp::ClientError& e) {
                return "refused " + std::to_string(e.code()) + ": " + e.what();
            }
        });
        inner.tool("ask_twice", "Asks for two names, one after the other", [](mcp::ToolContext& ctx) {
            const auto first = answer_text(ctx.elicit("First?", name_form(), "first"));
            const auto second = answer_text(ctx.elicit("Second?", name_form(), "second"));
            return first + ", " + second;
        });
        inner.tool("sample", "Asks the client's model",
                   [](mcp::ToolContext& ctx) { return "model said: " + ctx.sample_text("Say hi", 20); });
        inner.tool("ask_both", "Asks for a name and a completion in one round", [](mcp::ToolContext& ctx) {
            mcp::SamplingRequest poem;
            poem.messages.push_back({mcp::Role::user, mcp::text("A poem")});
            poem.key = "poem";
            auto answers = ctx.ask({mcp::ElicitRequest{"Name?", name_form(), "name"}, std::move(poem)});
            return answer_text(std::get<mcp::ElicitResult>(answers[0])) + " / " +
                   std::get<mcp::SamplingResult>(answers[1]).text();
        });
        inner.tool("hold", "Waits for the test to release it", [this] {
            held = true;
            released.wait(false);
            return std::string("released");
        });
    }

    // The outer client answers forms with `action` (and the name "Ada") and sampling with the
    // prompt's text echoed.
    mcp::Client& start(mcp::ElicitAction action = mcp::ElicitAction::accept) {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
        mcp::ClientOptions outer_options;
        outer_options.protocol_version = std::get<0>(GetParam());
        outer_options.handlers.elicitation = [this, action](const mcp::Elicitation& e) {
            ++outer_elicitations;
            {
                std::lock_guard lock(mutex);
                last_schema = e.requested_schema;
                messages.push_back(e.message);
            }
            if (on_elicitation) on_elicitation();
            mcp::ElicitResult answer{.action = action};
            if (action == mcp::ElicitAction::accept) answer.content = {{"name", "Ada"}};
            return answer;
        };
        outer_options.handlers.sampling = [this](const mcp::SamplingRequest& r) {
            ++outer_samplings;
            mcp::SamplingResult result;
            result.content.push_back(mcp::text("echo " + std::get<mcp::TextContent>(r.messages.at(0).content).text));
            result.model = "test-model";
            return result;
        };
        client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(outer_options));
        client->connect();
        return *client;
    }

    bool outer_2026() const { return std::get<0>(GetParam()) == "2026-07-28"; }
    bool inner_2026() const { return std::get<1>(GetParam()) == "2026-07-28"; }

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
    std::atomic<int> outer_samplings{0};
    std::atomic<bool> held{false};
    std::function<void()> on_elicitation;
    std::mutex mutex;
    boost::json::object last_schema;
    std::vector<std::string> messages;
    std::atomic<bool> released{false};
    mcp::Server inner{{.name = "inner", .version = "1"}};
    mcp::Server outer{{.name = "outer", .version = "1"}, {.validate_tool_output = false}};
    std::shared_ptr<mcp::Mount> mounted;
    std::unique_ptr<mcp::Client> client;
};

TEST_P(MountRequests, AnAcceptedFormReachesTheInnerServer) {
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_ask")), "Hello Ada");
    EXPECT_EQ(inner_calls.load(), 1);  // one inner call, however many outer rounds
    EXPECT_EQ(outer_elicitations.load(), 1);
    std::lock_guard lock(mutex);
    EXPECT_EQ(messages.at(0), "Who are you?");
    // The form as the inner server asked for it: the field's title, the optional age.
    EXPECT_EQ(last_schema.at("properties").at("name").at("title").as_string(), "Your name");
    EXPECT_EQ(last_schema.at("required").as_array().size(), 1U);
}

TEST_P(MountRequests, DeclineAndCancelReachTheInnerServer) {
    EXPECT_EQ(first_text(start(mcp::ElicitAction::decline).call_tool("in_ask")), "declined");
    TearDown();
    EXPECT_EQ(first_text(start(mcp::ElicitAction::cancel).call_tool("in_ask")), "cancelled");
    EXPECT_EQ(inner_calls.load(), 2);
}

TEST_P(MountRequests, SamplingReachesTheOuterClientsModel) {
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_sample")), "model said: echo Say hi");
    EXPECT_EQ(outer_samplings.load(), 1);
    EXPECT_EQ(inner_calls.load(), 1);
}

TEST_P(MountRequests, SeveralRequestsOfOneCallAreAnsweredInTurn) {
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_ask_twice")), "Hello Ada, Hello Ada");
    EXPECT_EQ(first_text(c.call_tool("in_ask_both")), "Hello Ada / echo A poem");
    EXPECT_EQ(outer_elicitations.load(), 3);
    EXPECT_EQ(outer_samplings.load(), 1);
    EXPECT_EQ(inner_calls.load(), 2);
}

TEST_P(MountRequests, WithTwoCallsInFlightOnlyARequestThatNamesItsCallIsPassedOn) {
    auto& c = start();
    auto holding = std::async(std::launch::async, [&] { return c.call_tool("in_hold"); });
    ASSERT_TRUE(eventually([&] { return held.load(); }));
    const auto asked = first_text(c.call_tool("in_ask"));
    if (inner_2026()) {
        // A 2026 inner server's input request comes in the inner call's own result: it is that call's.
        EXPECT_EQ(asked, "Hello Ada");
        EXPECT_EQ(outer_elicitations.load(), 1);
    } else {
        // A 2025 server's request could be either call's: refused, never guessed.
        EXPECT_NE(asked.find("refused -32600"), std::string::npos) << asked;
        EXPECT_NE(asked.find("several calls"), std::string::npos) << asked;
        EXPECT_EQ(outer_elicitations.load(), 0);
    }
    release();
    EXPECT_EQ(first_text(holding.get()), "released");
    EXPECT_EQ(first_text(c.call_tool("in_ask")), "Hello Ada");  // alone again: passed on
}

// Only a 2026 outer client retries.
class MountRetries : public MountRequests {};
// An outer client without the capability.
class MountRefusals : public MountRequests {};

TEST_P(MountRetries, ARetryWhoseWaitingCallIsGoneFailsWithoutASecondInnerCall) {
    // Between the rounds the mount is replaced (as when the retry reaches another node): the call
    // its requestState names is not there.
    on_elicitation = [this] {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted.reset();
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
    };
    auto& c = start();
    try {
        c.call_tool("in_ask");
        ADD_FAILURE() << "no error";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::internal_error);
        EXPECT_NE(e.message().find("no longer waiting"), std::string::npos) << e.message();
    }
    EXPECT_EQ(inner_calls.load(), 1);
}

TEST_P(MountRetries, EachRoundAsksUnderTheInnerServersKeyWhenItHasOne) {
    std::vector<std::string> answered;  // the keys of each retry's inputResponses
    outer.intercept([&](const mcp::Invocation& call, const mcp::Proceed& next) {
        if (const auto* responses = call.params.if_contains("inputResponses")) {
            std::lock_guard lock(mutex);
            for (const auto& kv : responses->as_object()) answered.emplace_back(kv.key());
        }
        return next();
    });
    auto& c = start();
    EXPECT_EQ(first_text(c.call_tool("in_ask_twice")), "Hello Ada, Hello Ada");
    EXPECT_EQ(inner_calls.load(), 1);
    std::lock_guard lock(mutex);
    // A 2026 inner server named them; a 2025 one's requests have no key, and the mount numbers them.
    const std::vector<std::string> expected = inner_2026() ? std::vector<std::string>{"first", "second"}
                                                           : std::vector<std::string>{"elicitation-1", "elicitation-2"};
    EXPECT_EQ(answered, expected);
}

TEST_P(MountRefusals, AnOuterClientWithoutTheCapabilityRefusesTheInnerRequest) {
    mcp::ClientOptions inner_options;
    inner_options.protocol_version = std::get<1>(GetParam());
    mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
    mcp::ClientOptions outer_options;
    outer_options.protocol_version = std::get<0>(GetParam());
    client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(outer_options));
    client->connect();
    if (!inner_2026()) {
        // The 2025 inner server hears the refusal, as from a client without the capability.
        const auto refused = first_text(client->call_tool("in_ask"));
        EXPECT_NE(refused.find("refused -32601"), std::string::npos) << refused;
    } else if (outer_2026()) {
        // As the 2026 inner server would have answered this caller itself.
        try {
            client->call_tool("in_ask");
            ADD_FAILURE() << "no error";
        } catch (const mcp::Error& e) {
            EXPECT_EQ(e.code(), -32021) << e.message();
        }
    } else {
        EXPECT_TRUE(client->call_tool("in_ask").is_error);  // CapabilityMissing on the 2025 wire
    }
    EXPECT_EQ(inner_calls.load(), 1);
}

std::string revisions_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& param_info) {
    auto name = "outer" + std::get<0>(param_info.param) + "_inner" + std::get<1>(param_info.param);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(Revisions, MountRequests,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);
INSTANTIATE_TEST_SUITE_P(Revisions, MountRetries,
                         ::testing::Combine(::testing::Values("2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);
INSTANTIATE_TEST_SUITE_P(Revisions, MountRefusals,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);

// ---- A requestedSchema another server sent, as a form.

TEST(FormSchemaFromJson, KeepsEachFieldAndWhatIsRequired) {
    const boost::json::object schema{
        {"type", "object"},
        {"properties",
         {{"name", {{"type", "string"}, {"title", "Name"}}}, {"size", {{"type", "string"}, {"enum", {"S", "M"}}}}}},
        {"required", {"name"}}};
    const auto form = mcp::FormSchema::from_json(schema);
    EXPECT_EQ(form.to_json(), schema);
    EXPECT_EQ(mcp::FormSchema::from_json({{"type", "object"}}).fields().size(), 0U);
}

TEST(FormSchemaFromJson, RefusesWhatIsNotAFlatObjectSchema) {
    for (const char* text : {R"({})", R"({"type":"string"})", R"({"type":"object","properties":[]})",
                             R"({"type":"object","properties":{"a":1}})", R"({"type":"object","required":"a"})",
                             R"({"type":"object","required":[1]})", R"({"type":["object"]})"}) {
        EXPECT_THROW(mcp::FormSchema::from_json(boost::json::parse(text).as_object()), std::invalid_argument) << text;
    }
}
