// mcp::Mount passing the inner server's URL elicitations to the outer client, for every pair of
// revisions (outer client x inner client): the URL and id as the inner server sent them, an outer
// client without URL mode refused, and a 2025 inner server's notifications/elicitation/complete
// reaching the 2025 outer session it asked (docs/adr/0029-gateway.md, decision 13).
#include "client_test_support.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

using client_testing::eventually;
using client_testing::first_text;

class MountUrlElicitation : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountUrlElicitation() {
        inner.tool("sign_in", "Sends the user to a page", [](mcp::ToolContext& ctx) {
            try {
                auto answers = ctx.ask(
                    {mcp::UrlElicitRequest{"Sign in, please", "https://example.com/flow?x=1", "flow-1", "sign-in"}});
                const auto& answer = std::get<mcp::ElicitResult>(answers.at(0));
                if (answer.accepted()) ctx.notify_elicitation_complete("flow-1");
                return std::string(answer.accepted() ? "opened" : "not opened");
            } catch (const std::exception& e) {
                return std::string("refused: ") + e.what();
            }
        });
    }

    mcp::Client& start(bool url_mode) {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
        mcp::ClientOptions options;
        options.protocol_version = std::get<0>(GetParam());
        options.handlers.elicitation = [this](const mcp::Elicitation& e) {
            std::lock_guard lock(mutex);
            asked.push_back(e);
            return mcp::ElicitResult{.action = mcp::ElicitAction::accept};
        };
        options.handlers.url_elicitation = url_mode;
        options.handlers.elicitation_complete = [this](const std::string& id) {
            std::lock_guard lock(mutex);
            completed.push_back(id);
        };
        client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(options));
        client->connect();
        return *client;
    }

    bool both_2025() const {
        return std::get<0>(GetParam()) == "2025-11-25" && std::get<1>(GetParam()) == "2025-11-25";
    }

    void TearDown() override {
        mounted.reset();
        if (client) client->close();
    }

    std::mutex mutex;
    std::vector<mcp::Elicitation> asked;
    std::vector<std::string> completed;
    mcp::Server inner{{.name = "inner", .version = "1"}};
    mcp::Server outer{{.name = "outer", .version = "1"}};
    std::shared_ptr<mcp::Mount> mounted;
    std::unique_ptr<mcp::Client> client;
};

TEST_P(MountUrlElicitation, TheOuterClientIsAskedToOpenTheInnerServersUrl) {
    EXPECT_EQ(first_text(start(true).call_tool("in_sign_in")), "opened");
    std::lock_guard lock(mutex);
    ASSERT_EQ(asked.size(), 1U);
    EXPECT_EQ(asked[0].mode, mcp::ElicitMode::url);
    EXPECT_EQ(asked[0].url, "https://example.com/flow?x=1");
    EXPECT_EQ(asked[0].message, "Sign in, please");
    EXPECT_EQ(asked[0].elicitation_id, "flow-1");  // the inner server's, so that its completion matches
}

TEST_P(MountUrlElicitation, ItsCompletionReachesA2025OuterSession) {
    auto& c = start(true);
    EXPECT_EQ(first_text(c.call_tool("in_sign_in")), "opened");
    if (both_2025()) {
        EXPECT_TRUE(eventually([&] {
            std::lock_guard lock(mutex);
            return completed == std::vector<std::string>{"flow-1"};
        }));
    } else {
        // notifications/elicitation/complete is not in 2026-07-28: neither side sends it. A ping
        // after the call, answered after any notification sent before it, shows none came.
        c.ping();
        std::lock_guard lock(mutex);
        EXPECT_TRUE(completed.empty());
    }
}

TEST_P(MountUrlElicitation, AnOuterClientWithoutUrlModeIsNeverAsked) {
    const auto text = first_text(start(false).call_tool("in_sign_in"));
    EXPECT_TRUE(text.starts_with("refused: ")) << text;
    std::lock_guard lock(mutex);
    EXPECT_TRUE(asked.empty());
}

// test_bridge_mount_requests.cpp's.
std::string revisions_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& param_info);

INSTANTIATE_TEST_SUITE_P(Revisions, MountUrlElicitation,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);
