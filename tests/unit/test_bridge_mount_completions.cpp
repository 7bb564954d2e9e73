// mcp::Mount forwarding completion/complete of a mounted prompt argument and template variable to
// the inner server, for every pair of revisions (outer client x inner client): the values, the
// context.arguments passed on, total and hasMore as the inner server gave them, an inner server
// without the completions capability, an inner error (docs/adr/0029-gateway.md, decision 14).
#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

const std::vector<std::string> kDepartments{"Engineering", "Finance", "Marketing", "Sales"};

std::vector<std::string> starting_with(const std::vector<std::string>& values, const std::string& typed) {
    std::vector<std::string> out;
    std::copy_if(values.begin(), values.end(), std::back_inserter(out),
                 [&](const std::string& v) { return v.starts_with(typed); });
    return out;
}

// The code and message of the error completing `department` throws; none (0) when it throws none.
std::pair<int, std::string> error_of(mcp::Client& c, const mcp::CompletionRef& ref, const std::string& value) {
    try {
        c.complete(ref, "department", value);
    } catch (const mcp::Error& e) {
        return {e.code(), e.what()};
    }
    return {0, "no error"};
}

}  // namespace

class MountCompletions : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountCompletions() {
        inner.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
            if (call.method == "completion/complete") ++inner_completions;
            auto result = next();
            // An inner server without the capability: neither initialize nor server/discover declares it.
            if (without_capability && (call.method == "initialize" || call.method == "server/discover")) {
                if (auto* caps = result.as_object().if_contains("capabilities"); caps && caps->is_object())
                    caps->as_object().erase("completions");
            }
            return result;
        });
        inner.prompt({.name = "team",
                      .description = "A team's introduction",
                      .arguments = {{.name = "department", .required = true}, {.name = "member"}}},
                     [](const std::map<std::string, std::string>& args) { return "team " + args.at("department"); });
        inner.complete_prompt_argument("team", "department", [](const mcp::CompletionRequest& r) {
            if (r.value == "!") throw mcp::Error(mcp::error_code::invalid_params, "no department starts with !");
            return starting_with(kDepartments, r.value);
        });
        // The members of the department the client resolved already (context.arguments).
        inner.complete_prompt_argument("team", "member", [](const mcp::CompletionRequest& r) {
            const auto department = r.context.find("department");
            if (department == r.context.end()) return std::vector<std::string>{};
            return starting_with(department->second == "Engineering" ? std::vector<std::string>{"Ada", "Alan"}
                                                                     : std::vector<std::string>{"Bob"},
                                 r.value);
        });
        inner.resource_template(
            "notes://{folder}/{id}", {.name = "note", .mime_type = "text/plain"},
            [](std::string_view folder, std::string_view id) { return std::string(folder) + "/" + std::string(id); });
        // 150 ids: the inner server sends 100 of them, with total 150 and hasMore.
        inner.complete_template_variable("notes://{folder}/{id}", "id", [](const mcp::CompletionRequest& r) {
            std::vector<std::string> ids;
            for (int i = 0; i < 150; ++i) ids.push_back(r.value + std::to_string(i));
            return ids;
        });
    }

    mcp::Client& start() {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
        mcp::ClientOptions outer_options;
        outer_options.protocol_version = std::get<0>(GetParam());
        client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(outer_options));
        client->connect();
        return *client;
    }

    void TearDown() override {
        mounted.reset();
        if (client) client->close();
    }

    std::atomic<int> inner_completions{0};
    std::atomic<bool> without_capability{false};
    mcp::Server inner{{.name = "inner", .version = "1"}};
    mcp::Server outer{{.name = "outer", .version = "1"}};
    std::shared_ptr<mcp::Mount> mounted;
    std::unique_ptr<mcp::Client> client;
};

TEST_P(MountCompletions, APromptArgumentCompletesAsTheInnerServerCompletesIt) {
    auto& c = start();
    EXPECT_TRUE(c.server_capabilities().contains("completions"));
    const auto team = mcp::CompletionRef::prompt("in_team");
    EXPECT_EQ(c.complete(team, "department", "E").values, std::vector<std::string>{"Engineering"});
    EXPECT_EQ(c.complete(team, "department", "").values, kDepartments);
    EXPECT_TRUE(c.complete(team, "department", "Z").values.empty());
    // context.arguments reach the inner completer.
    EXPECT_EQ(c.complete(team, "member", "A", {{"department", "Engineering"}}).values,
              (std::vector<std::string>{"Ada", "Alan"}));
    EXPECT_EQ(c.complete(team, "member", "", {{"department", "Sales"}}).values, std::vector<std::string>{"Bob"});
    EXPECT_EQ(inner_completions.load(), 5);
}

TEST_P(MountCompletions, ATemplateVariableCompletesWithTheInnerTotalAndHasMore) {
    auto& c = start();
    const auto ids = c.complete(mcp::CompletionRef::resource_template("notes://in/{folder}/{id}"), "id", "n");
    ASSERT_EQ(ids.values.size(), 100U);
    EXPECT_EQ(ids.values.front(), "n0");
    EXPECT_EQ(ids.values.back(), "n99");
    EXPECT_EQ(ids.total, 150);
    EXPECT_TRUE(ids.has_more);
    // The inner template's name: the inner server has nothing under the outer one.
    EXPECT_EQ(inner_completions.load(), 1);
}

TEST_P(MountCompletions, OnlyAnInnerServerWithTheCapabilityIsAsked) {
    without_capability = true;
    auto& without = start();
    EXPECT_TRUE(without.server_capabilities().contains("completions"));  // the outer server's own
    EXPECT_TRUE(without.complete(mcp::CompletionRef::prompt("in_team"), "department", "E").values.empty());
    EXPECT_TRUE(
        without.complete(mcp::CompletionRef::resource_template("notes://in/{folder}/{id}"), "id", "").values.empty());
    EXPECT_EQ(inner_completions.load(), 0);

    TearDown();
    without_capability = false;
    EXPECT_EQ(start().complete(mcp::CompletionRef::prompt("in_team"), "department", "E").values,
              std::vector<std::string>{"Engineering"});
    EXPECT_EQ(inner_completions.load(), 1);
}

TEST_P(MountCompletions, AnInnerErrorIsTheOuterError) {
    const auto e = error_of(start(), mcp::CompletionRef::prompt("in_team"), "!");
    EXPECT_EQ(e.first, mcp::error_code::invalid_params);
    EXPECT_NE(e.second.find("no department starts with !"), std::string::npos) << e.second;
    EXPECT_EQ(inner_completions.load(), 1);
}

TEST_P(MountCompletions, AnInnerServerThatIsGoneIsAnErrorNamingTheMount) {
    auto& c = start();
    mcp::Mount detached(outer, "gone", [] { return std::shared_ptr<mcp::Client>(); });
    detached.sync({.prompts = {mcp::Prompt{.name = "team", .description = "d"}}});
    const auto e = error_of(c, mcp::CompletionRef::prompt("gone_team"), "E");
    EXPECT_EQ(e.first, mcp::error_code::internal_error);
    EXPECT_NE(e.second.find("\"gone\""), std::string::npos) << e.second;
}

// outer<revision>_inner<revision> (test_bridge_mount_requests.cpp).
std::string revisions_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& param_info);

INSTANTIATE_TEST_SUITE_P(Revisions, MountCompletions,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);
