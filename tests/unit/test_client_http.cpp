// mcp::Client over Streamable HTTP against the real demo server (MCP_CPP_DEMO, started on a port
// of its own for each test), in each revision the transport speaks: negotiated, pinned to
// 2026-07-28, and pinned to two 2025 ones (with and without the MCP-Protocol-Version header).
#include "client_test_support.hpp"
#include "demo_server.hpp"
#include "raw_http.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/http.hpp>
#include <mcp/protocol/errors.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

using namespace std::chrono_literals;
using client_testing::env;
using client_testing::eventually;
using client_testing::first_text;

namespace {

class ClientHttpDemo : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        ASSERT_FALSE(env("MCP_CPP_DEMO").empty()) << "MCP_CPP_DEMO is not set (ctest sets it)";
        demo.emplace(env("MCP_CPP_DEMO"));
    }
    void TearDown() override {
        if (client) client->close();
    }

    bool modern() const { return GetParam() == "auto" || GetParam() == "2026-07-28"; }

    mcp::Client& connect(mcp::ClientOptions options = {}, mcp::HttpServerParams params = {}) {
        params.url = demo->url();
        transport = std::make_shared<mcp::HttpTransport>(std::move(params));
        options.protocol_version = GetParam();
        client = std::make_unique<mcp::Client>(transport, std::move(options));
        client->connect();
        return *client;
    }

    // The demo's counters (demo://server/stats), read past the cache.
    boost::json::object stats() {
        const auto read = client->read_resource("demo://server/stats", {.fresh = true});
        return boost::json::parse(std::get<mcp::TextResourceContents>(read.contents.at(0)).text).as_object();
    }

    std::optional<testing_support::DemoServer> demo;
    std::shared_ptr<mcp::HttpTransport> transport;
    std::unique_ptr<mcp::Client> client;
};

// The 2025 session's rules: the same fixture, in the 2025 revisions only.
class ClientHttpSession : public ClientHttpDemo {};

std::string revision_name(const ::testing::TestParamInfo<std::string>& param) {
    std::string name = param.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return "v" + name;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Revisions, ClientHttpDemo, ::testing::Values("auto", "2026-07-28", "2025-11-25", "2025-03-26"),
                         revision_name);
INSTANTIATE_TEST_SUITE_P(Revisions, ClientHttpSession, ::testing::Values("2025-11-25", "2025-03-26"), revision_name);

TEST_P(ClientHttpDemo, ConnectsInTheRevisionAskedFor) {
    auto& c = connect();
    EXPECT_EQ(c.server_info().name, "mcp-cpp-demo");
    if (modern()) {
        EXPECT_EQ(c.era(), mcp::Era::stateless);
        EXPECT_EQ(c.protocol_version(), "2026-07-28");
        EXPECT_TRUE(transport->session_id().empty());
    } else {
        EXPECT_EQ(c.era(), mcp::Era::sessions);
        EXPECT_EQ(c.protocol_version(), GetParam());
        EXPECT_FALSE(transport->session_id().empty());
    }
}

TEST_P(ClientHttpDemo, EveryTypedMethod) {
    auto& c = connect();
    const auto tools = c.all_tools();
    for (const auto* name : {"echo", "word_stats", "slow_count", "add_note", "delete_note"}) {
        EXPECT_TRUE(std::any_of(tools.begin(), tools.end(), [&](const mcp::Tool& t) { return t.name == name; }))
            << name;
    }
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "über HTTP"}})), "über HTTP");
    const auto stats = c.call_tool("word_stats", {{"text", "a b a"}});
    ASSERT_TRUE(stats.structured_content);  // checked against the listed outputSchema
    EXPECT_EQ(stats.structured_content->at("words"), 3);

    const auto prompts = c.all_prompts();
    EXPECT_TRUE(
        std::any_of(prompts.begin(), prompts.end(), [](const mcp::Prompt& p) { return p.name == "summarize"; }));
    EXPECT_FALSE(c.get_prompt("summarize", {{"text", "Some text."}}).messages.empty());

    EXPECT_EQ(first_text(c.call_tool("add_note", {{"slug", "groceries"}, {"body", "milk"}})), "(not text)");
    const auto resources = c.all_resources();
    EXPECT_TRUE(std::any_of(resources.begin(), resources.end(),
                            [](const mcp::Resource& r) { return r.uri == "demo://server/stats"; }));
    const auto templates = c.all_resource_templates();
    ASSERT_FALSE(templates.empty());
    EXPECT_EQ(templates[0].uri_template, "demo://notes/{slug}");
    const auto note = c.read_resource("demo://notes/groceries");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(note.contents.at(0)).text, "milk");
    EXPECT_EQ(c.complete(mcp::CompletionRef::prompt("review_note"), "slug", "gro").values,
              std::vector<std::string>{"groceries"});
    EXPECT_EQ(c.complete(mcp::CompletionRef::resource_template("demo://notes/{slug}"), "slug", "g").values,
              std::vector<std::string>{"groceries"});
    c.ping();
    c.set_log_level(mcp::LogLevel::warning);
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "after"}})), "after");
    try {
        c.read_resource("demo://notes/missing");
        FAIL() << "read a missing note";
    } catch (const mcp::Error& e) {
        // The server's JSON-RPC error as it sent it, whatever the HTTP status (2026: 404 with
        // invalid params; 2025: 200 with resource not found).
        EXPECT_EQ(e.code(), modern() ? mcp::error_code::invalid_params : mcp::error_code::resource_not_found);
    }
}

TEST_P(ClientHttpDemo, ProgressArrivesOnThePostsEventStream) {
    auto& c = connect();
    std::mutex m;
    std::vector<double> seen;
    const auto result =
        c.call_tool("slow_count", {{"to", 3}, {"step_ms", 30}}, {.on_progress = [&](const mcp::Progress& p) {
                        std::lock_guard lock(m);
                        seen.push_back(p.progress);
                    }});
    EXPECT_EQ(first_text(result), "Counted to 3");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return seen == std::vector<double>{1, 2, 3};
    }));
}

// 2026: the request's stream is closed; 2025: notifications/cancelled. The server stops either way.
TEST_P(ClientHttpDemo, CancellingACallStopsItOnTheServer) {
    auto& c = connect();
    std::stop_source stop;
    std::promise<void> started;
    auto call = std::async(std::launch::async, [&] {
        // The flag is the callback's own: progress queued before the cancellation took hold is still
        // handed over after this body, until TearDown closes the client.
        return c.call_tool("slow_count", {{"to", 200}, {"step_ms", 50}},
                           {.stop = stop.get_token(),
                            .on_progress = [&, once = std::make_shared<std::once_flag>()](const mcp::Progress&) {
                                std::call_once(*once, [&] { started.set_value(); });
                            }});
    });
    ASSERT_EQ(started.get_future().wait_for(5s), std::future_status::ready);
    stop.request_stop();
    EXPECT_THROW(call.get(), mcp::Cancelled);
    EXPECT_TRUE(eventually([&] { return stats().at("cancellations_observed") == 1; }));
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "still here"}})), "still here");
}

TEST_P(ClientHttpDemo, ATimeoutCancelsTheCallOnTheServer) {
    auto& c = connect();
    EXPECT_THROW(c.call_tool("slow_count", {{"to", 200}, {"step_ms", 50}}, {.timeout = 300ms}), mcp::RequestTimeout);
    EXPECT_TRUE(eventually([&] { return stats().at("cancellations_observed") == 1; }));
}

// 2025: the server's elicitation/create comes on the POST's stream and the answer goes back by
// POST; 2026: an input_required result and a retry.
TEST_P(ClientHttpDemo, ElicitationIsAnswered) {
    std::atomic<int> asked{0};
    mcp::ClientHandlers handlers;
    handlers.elicitation = [&](const mcp::Elicitation&) {
        ++asked;
        return mcp::ElicitResult{mcp::ElicitAction::accept, {{"confirm", true}}};
    };
    auto& c = connect({.handlers = handlers});
    c.call_tool("add_note", {{"slug", "old"}, {"body", "x"}});
    EXPECT_EQ(first_text(c.call_tool("delete_note", {{"slug", "old"}})), "Deleted old");
    EXPECT_EQ(asked.load(), 1);
}

// 2026: a subscriptions/listen stream; 2025: resources/subscribe, the update arriving on the
// session's GET stream.
TEST_P(ClientHttpDemo, ListeningDeliversResourceUpdates) {
    // Shared with the callback: updates keep coming until TearDown closes the client.
    struct Seen {
        std::mutex m;
        std::vector<std::string> uris;
    };
    auto seen = std::make_shared<Seen>();
    mcp::ClientHandlers handlers;
    handlers.resource_updated = [seen](const std::string& uri) {
        std::lock_guard lock(seen->m);
        seen->uris.push_back(uri);
    };
    auto& c = connect({.handlers = handlers});
    auto subscription = c.listen({.resource_subscriptions = {"demo://notes/todo"}});
    EXPECT_TRUE(subscription.active());
    // In 2025 the update comes on the GET stream, which opens alongside: a few writes until one lands.
    EXPECT_TRUE(eventually([&] {
        c.call_tool("add_note", {{"slug", "todo"}, {"body", "write tests"}});
        std::lock_guard lock(seen->m);
        return !seen->uris.empty();
    }));
    std::lock_guard lock(seen->m);
    EXPECT_EQ(seen->uris.front(), "demo://notes/todo");
}

// 2025: the server's sampling/createMessage and elicitation/create arrive on the POST's stream;
// 2026: both in one input_required round. Roots are asked the same way.
TEST_P(ClientHttpDemo, SamplingElicitationAndRootsAreAnswered) {
    mcp::ClientHandlers handlers;
    handlers.elicitation = [](const mcp::Elicitation&) {
        return mcp::ElicitResult{mcp::ElicitAction::accept, {{"slug", "drafted"}}};
    };
    handlers.sampling = [](const mcp::SamplingRequest& request) {
        mcp::SamplingResult result;
        result.content.push_back(mcp::TextContent{"# " + request.system_prompt});
        result.model = "test-model";
        return result;
    };
    auto& c = connect({.handlers = handlers, .roots = std::vector<mcp::Root>{{"file:///work", "work"}}});
    c.call_tool("draft_note", {{"topic", "HTTP"}});
    const auto note = c.read_resource("demo://notes/drafted");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(note.contents.at(0)).text, "# You write concise notes.");
    EXPECT_EQ(first_text(c.call_tool("project_roots")), "file:///work (work)\n");
}

// One client shared by 64 threads, 8 calls each, all in flight over one pool of connections.
TEST_P(ClientHttpDemo, SixtyFourThreadsShareOneClient) {
    auto& c = connect();
    std::atomic<int> right{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 64; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 8; ++i) {
                const auto text = std::to_string(t) + "/" + std::to_string(i);
                try {
                    if (first_text(c.call_tool("echo", {{"text", text}}, {.timeout = 20s})) == text) ++right;
                } catch (const std::exception& e) {
                    ADD_FAILURE() << text << ": " << e.what();
                }
            }
        });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(right.load(), 64 * 8);
}

TEST_P(ClientHttpSession, CloseEndsTheSession) {
    auto& c = connect();
    const auto session = transport->session_id();
    ASSERT_FALSE(session.empty());
    const auto ping = [&] {
        return testing_support::raw_http(demo->port(), "POST", "/mcp",
                                         {{"Mcp-Session-Id", session},
                                          {"MCP-Protocol-Version", GetParam()},
                                          {"Content-Type", "application/json"},
                                          {"Accept", "application/json, text/event-stream"}},
                                         R"({"jsonrpc":"2.0","id":1,"method":"ping"})")
            .status;
    };
    EXPECT_EQ(ping(), 200);
    c.close();  // DELETE
    EXPECT_EQ(ping(), 404);
}

TEST_P(ClientHttpSession, ASessionEndedBehindTheClientsBackIsRenewed) {
    std::atomic<int> expired{0};
    auto& c = connect({}, {.on_session_expired = [&] { ++expired; }});
    const auto first = transport->session_id();
    EXPECT_EQ(testing_support::raw_http(demo->port(), "DELETE", "/mcp", {{"Mcp-Session-Id", first}}).status, 200);
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "again"}})), "again");
    EXPECT_EQ(expired.load(), 1);
    EXPECT_FALSE(transport->session_id().empty());
    EXPECT_NE(transport->session_id(), first);
}

TEST_P(ClientHttpSession, ARestartedServerHasLostTheSessionAndTheClientStartsANewOne) {
    std::atomic<int> expired{0};
    auto& c = connect({}, {.on_session_expired = [&] { ++expired; }});
    const auto first = transport->session_id();
    demo->restart();
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "after the restart"}})), "after the restart");
    EXPECT_EQ(expired.load(), 1);
    EXPECT_NE(transport->session_id(), first);
}
