// Authorization in the core: the scopes tools, prompts and resources declare, checked against the
// request's principal (both eras), list filtering, cursors bound to their principal, and the
// interceptor chain (order, what it sees, refusals, the rate limiter).
#include "server_fixture.hpp"

#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

using namespace testing_support;

namespace {

std::shared_ptr<const mcp::Principal> principal(std::string subject, std::vector<std::string> scopes) {
    auto p = std::make_shared<mcp::Principal>();
    p->subject = std::move(subject);
    p->scopes = std::move(scopes);
    return p;
}

boost::json::object stateless_meta() {
    return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientInfo", {{"name", "gtest"}, {"version", "1"}}},
            {"io.modelcontextprotocol/clientCapabilities", boost::json::object()}};
}

class Authorization : public ServerTest {
protected:
    void SetUp() override {
        server.tool({.name = "read_notes", .description = "Reads", .required_scopes = {"notes:read"}},
                    [] { return "notes"; });
        server.tool({.name = "add_note", .description = "Writes", .required_scopes = {"notes:read", "notes:write"}},
                    [] { return "added"; });
        server.tool("open", "Needs nothing", [] { return "open"; });
        server.resource_template("notes://{slug}", {.required_scopes = {"notes:read"}},
                                 [](std::string_view slug) { return std::string(slug); });
    }

    void connect_as(std::shared_ptr<const mcp::Principal> who) { connect_and_initialize("2025-11-25", std::move(who)); }

    std::vector<std::string> tool_names() {
        std::vector<std::string> names;
        const auto listed = result("tools/list");
        for (const auto& t : listed.at("tools").as_array()) names.emplace_back(t.at("name").as_string());
        return names;
    }
};

TEST_F(Authorization, ACallWithoutTheToolsScopesIsRefusedNamingThemAll) {
    connect_as(principal("alice", {"notes:read"}));
    EXPECT_EQ(first_text(call_tool("read_notes", {})), "notes");
    const auto reply = call("tools/call", {{"name", "add_note"}, {"arguments", boost::json::object()}});
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::forbidden);
    EXPECT_EQ(reply.at("error").at("data").at("requiredScopes"), (boost::json::array{"notes:read", "notes:write"}));
    EXPECT_NE(std::string(reply.at("error").at("message").as_string()).find("notes:write"), std::string::npos);
}

TEST_F(Authorization, EnoughScopesPass) {
    connect_as(principal("alice", {"notes:write", "notes:read"}));
    EXPECT_EQ(first_text(call_tool("add_note", {})), "added");
    EXPECT_EQ(result("resources/read", {{"uri", "notes://a"}}).at("contents").at(0).at("text"), "a");
}

TEST_F(Authorization, ATemplatesScopesCoverEveryUriItMatches) {
    connect_as(principal("bob", {}));
    EXPECT_EQ(error_code("resources/read", {{"uri", "notes://secret"}}), mcp::error_code::forbidden);
    EXPECT_EQ(first_text(call_tool("open", {})), "open");
}

TEST_F(Authorization, AnonymousRequestsAreNotScopeChecked) {
    connect_and_initialize();
    EXPECT_EQ(first_text(call_tool("add_note", {})), "added");
}

TEST_F(Authorization, TheStatelessEraIsCheckedToo) {
    conn = std::make_unique<mcp::LocalConnection>(server, principal("alice", {"notes:read"}));
    const auto reply =
        call("tools/call", {{"name", "add_note"}, {"arguments", boost::json::object()}, {"_meta", stateless_meta()}});
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::forbidden);
}

TEST_F(Authorization, ListsHideWhatThePrincipalCannotUse) {
    connect_as(principal("alice", {"notes:read"}));
    EXPECT_EQ(tool_names(), (std::vector<std::string>{"open", "read_notes"}));
    connect_as(principal("carol", {}));
    EXPECT_EQ(tool_names(), (std::vector<std::string>{"open"}));
}

// A subscription tells of changes to the resource, and a completion lists what a template or prompt
// guards: both need the scopes reading it does.
TEST_F(Authorization, SubscribingToAResourceNeedsItsScopes) {
    connect_as(principal("carol", {}));
    const auto reply = call("resources/subscribe", {{"uri", "notes://secret"}});
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::forbidden);
    EXPECT_EQ(reply.at("error").at("data").at("requiredScopes"), (boost::json::array{"notes:read"}));
    EXPECT_TRUE(result("resources/subscribe", {{"uri", "other://anything"}}).is_object());  // declares nothing

    connect_as(principal("alice", {"notes:read"}));
    EXPECT_TRUE(result("resources/subscribe", {{"uri", "notes://secret"}}).is_object());
}

TEST_F(Authorization, ListeningForAResourceNeedsItsScopes) {
    conn = std::make_unique<mcp::LocalConnection>(server, principal("carol", {}));
    const auto reply = call("subscriptions/listen", {{"notifications", {{"resourceSubscriptions", {"notes://secret"}}}},
                                                     {"_meta", stateless_meta()}});
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::forbidden);
}

TEST_F(Authorization, CompletingATemplateOrPromptNeedsItsScopes) {
    server.prompt({.name = "review", .description = "Reviews a note", .required_scopes = {"notes:read"}},
                  [] { return "review"; });
    server.complete_template_variable("notes://{slug}", "slug", [](const mcp::CompletionRequest&) {
        return std::vector<std::string>{"secret-plans"};
    });
    const boost::json::object on_template{{"ref", {{"type", "ref/resource"}, {"uri", "notes://{slug}"}}},
                                          {"argument", {{"name", "slug"}, {"value", ""}}}};
    const boost::json::object on_prompt{{"ref", {{"type", "ref/prompt"}, {"name", "review"}}},
                                        {"argument", {{"name", "slug"}, {"value", ""}}}};
    connect_as(principal("carol", {}));
    EXPECT_EQ(error_code("completion/complete", on_template), mcp::error_code::forbidden);
    EXPECT_EQ(error_code("completion/complete", on_prompt), mcp::error_code::forbidden);

    connect_as(principal("alice", {"notes:read"}));
    EXPECT_EQ(result("completion/complete", on_template).at("completion").at("values"),
              (boost::json::array{"secret-plans"}));
    EXPECT_TRUE(result("completion/complete", on_prompt).at("completion").at("values").is_array());
}

TEST_F(Authorization, RequiredScopesIsTheUnionOfWhatIsRegistered) {
    EXPECT_EQ(server.required_scopes(), (std::vector<std::string>{"notes:read", "notes:write"}));
}

class ShowingUnauthorized : public Authorization {
protected:
    ShowingUnauthorized() { server.configure({.list_unauthorized = true}); }
};

TEST_F(ShowingUnauthorized, ListsShowEverythingWhenAskedTo) {
    connect_as(principal("carol", {}));
    EXPECT_EQ(tool_names(), (std::vector<std::string>{"add_note", "open", "read_notes"}));
    EXPECT_EQ(error_code("tools/call", {{"name", "add_note"}, {"arguments", boost::json::object()}}),
              mcp::error_code::forbidden);
}

class Paging : public ServerTest {
protected:
    Paging() : ServerTest({.page_size = 1}) {
        server.tool("a", "a", [] { return "a"; });
        server.tool("b", "b", [] { return "b"; });
    }
};

TEST_F(Paging, ACursorIsGoodOnlyForThePrincipalItWasIssuedTo) {
    connect_and_initialize("2025-11-25", principal("alice", {}));
    const auto cursor = result("tools/list").at("nextCursor");
    EXPECT_EQ(result("tools/list", {{"cursor", cursor}}).at("tools").at(0).at("name"), "b");

    connect_and_initialize("2025-11-25", principal("mallory", {}));
    EXPECT_EQ(error_code("tools/list", {{"cursor", cursor}}), mcp::error_code::invalid_params);
}

class Intercepted : public ServerTest {
protected:
    void SetUp() override {
        server.tool({.name = "guarded", .description = "g", .required_scopes = {"s"}}, [] { return "inner"; });
        server.tool("plain", "p", [] { return "inner"; });
    }
    std::vector<std::string> seen;
};

TEST_F(Intercepted, InterceptorsRunInOrderAroundTheMethodAndSeeTheRequest) {
    server.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
        seen.push_back("outer " + std::string(call.method) + " " + std::string(call.target));
        auto result = next();
        seen.push_back("outer done");
        return result;
    });
    server.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
        seen.push_back("inner scopes=" + std::to_string(call.required_scopes.size()) +
                       " subject=" + (call.exchange.principal() ? call.exchange.principal()->subject : "-"));
        auto result = next();
        result.as_object()["wrapped"] = true;
        return result;
    });
    connect_and_initialize("2025-11-25", principal("alice", {"s"}));
    const auto r = call_tool("guarded", {});
    EXPECT_EQ(first_text(r), "inner");
    EXPECT_EQ(r.at("wrapped"), true);
    const std::vector<std::string> expected{"outer initialize ",        "inner scopes=0 subject=alice", "outer done",
                                            "outer tools/call guarded", "inner scopes=1 subject=alice", "outer done"};
    EXPECT_EQ(seen, expected);
}

TEST_F(Intercepted, ARefusalBecomesTheErrorOfTheCall) {
    server.intercept([](const mcp::Invocation& call, const mcp::Proceed& next) -> boost::json::value {
        if (call.target == "plain") throw mcp::Refusal(451, -32042, "Unavailable for legal reasons");
        return next();
    });
    connect_and_initialize();
    EXPECT_EQ(error_code("tools/call", {{"name", "plain"}, {"arguments", boost::json::object()}}), -32042);
}

TEST_F(Intercepted, TheRateLimitRefusesBeyondItsBurst) {
    server.intercept(mcp::rate_limit(0.001, 2));  // two now, the next in 1000 s
    connect_and_initialize();                     // initialize is one
    EXPECT_EQ(first_text(call_tool("plain", {})), "inner");
    const auto reply = call("tools/call", {{"name", "plain"}, {"arguments", boost::json::object()}});
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::rate_limited);
}

TEST_F(Intercepted, InterceptorsAreFixedOnceServingBegins) {
    connect_and_initialize();
    EXPECT_THROW(server.intercept([](const mcp::Invocation&, const mcp::Proceed& next) { return next(); }),
                 std::logic_error);
}

}  // namespace
