// Prompts, resources, resource templates and completions through the real core.
#include "server_fixture.hpp"

#include <boost/json/serialize.hpp>

using namespace testing_support;

namespace prtest {

enum class Tone { formal, casual, cheeky };
BOOST_DESCRIBE_ENUM(Tone, formal, casual, cheeky)

struct Letter {
    std::string to;
    std::optional<Tone> tone;
    std::optional<int> lines;
};
BOOST_DESCRIBE_STRUCT(Letter, (), (to, tone, lines))
inline void mcp_schema(mcp::json::SchemaHints<Letter>& h) { h.field(&Letter::to).description("Recipient").title("To"); }

struct RowRef {
    std::string table;
    int id;
};
BOOST_DESCRIBE_STRUCT(RowRef, (), (table, id))

}  // namespace prtest

using namespace prtest;

namespace {

class Prompts : public ServerTest {
protected:
    void SetUp() override {
        server.prompt("letter", "Writes a letter", [](const Letter& in) {
            return "Write to " + in.to + " in a " + (in.tone == Tone::cheeky ? "cheeky" : "plain") + " tone, " +
                   std::to_string(in.lines.value_or(3)) + " lines";
        });
        server.prompt(
            {.name = "raw", .description = "Raw map", .arguments = {{.name = "x", .required = true}}},
            [](const mcp::PromptArguments& args) {
                return mcp::GetPromptResult{"raw prompt", {mcp::assistant_message(mcp::text(args.at("x")))}, {}};
            });
        connect_and_initialize();
    }
};

}  // namespace

TEST_F(Prompts, ListedWithArgumentsFromTheStruct) {
    auto list = result("prompts/list");
    const auto& letter = list.at("prompts").at(0);
    EXPECT_EQ(letter.at("name"), "letter");
    EXPECT_EQ(
        boost::json::serialize(letter.at("arguments")),
        R"([{"name":"to","title":"To","description":"Recipient","required":true},{"name":"tone","required":false},{"name":"lines","required":false}])");
}

TEST_F(Prompts, TypedArgumentsAreConvertedFromStrings) {
    auto r =
        result("prompts/get", {{"name", "letter"}, {"arguments", {{"to", "Bo"}, {"tone", "cheeky"}, {"lines", "5"}}}});
    EXPECT_EQ(boost::json::serialize(r.at("messages")),
              R"([{"role":"user","content":{"type":"text","text":"Write to Bo in a cheeky tone, 5 lines"}}])");
    r = result("prompts/get", {{"name", "raw"}, {"arguments", {{"x", "y"}}}});
    EXPECT_EQ(r.at("description"), "raw prompt");
    EXPECT_EQ(r.at("messages").at(0).at("role"), "assistant");
}

TEST_F(Prompts, BadArgumentsAreInvalidParams) {
    using mcp::error_code::invalid_params;
    EXPECT_EQ(error_code("prompts/get", {{"name", "letter"}}), invalid_params);
    EXPECT_EQ(error_code("prompts/get", {{"name", "letter"}, {"arguments", {{"to", 3}}}}), invalid_params);
    EXPECT_EQ(error_code("prompts/get", {{"name", "letter"}, {"arguments", {{"to", "a"}, {"lines", "many"}}}}),
              invalid_params);
    EXPECT_EQ(error_code("prompts/get", {{"name", "letter"}, {"arguments", {{"to", "a"}, {"tone", "rude"}}}}),
              invalid_params);
    EXPECT_EQ(error_code("prompts/get", {{"name", "nope"}}), invalid_params);
    EXPECT_EQ(error_code("prompts/get", {{"name", "raw"}}), invalid_params);
}

TEST_F(Prompts, EnumArgumentsCompleteByThemselves) {
    auto r = result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "letter"}}},
                                            {"argument", {{"name", "tone"}, {"value", "c"}}}});
    EXPECT_EQ(boost::json::serialize(r), R"({"completion":{"values":["casual","cheeky"],"total":2,"hasMore":false}})");
}

TEST_F(Prompts, RegisteredCompleterSeesContextAndIsCapped) {
    server.complete_prompt_argument("letter", "to", [](const mcp::CompletionRequest& req) {
        std::vector<std::string> out;
        out.reserve(150);
        for (int i = 0; i < 150; ++i) out.push_back(req.value + std::to_string(i) + req.context.at("tone"));
        return out;
    });
    auto r = result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "letter"}}},
                                            {"argument", {{"name", "to"}, {"value", "x"}}},
                                            {"context", {{"arguments", {{"tone", "!"}}}}}});
    EXPECT_EQ(r.at("completion").at("values").as_array().size(), 100u);
    EXPECT_EQ(r.at("completion").at("values").at(0), "x0!");
    EXPECT_EQ(r.at("completion").at("total"), 150);
    EXPECT_EQ(r.at("completion").at("hasMore"), true);
    EXPECT_EQ(error_code("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "nope"}}},
                                                 {"argument", {{"name", "to"}, {"value", ""}}}}),
              mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("completion/complete", {{"ref", {{"type", "ref/other"}}}, {"argument", {{"name", "a"}}}}),
              mcp::error_code::invalid_params);
}

TEST_F(Prompts, AnEntrysCompletionHandlerAnswersWhatNoCompleterDoesWithItsOwnTotal) {
    server.prompt({.name = "forwarded",
                   .description = "Completed elsewhere",
                   .arguments = {{.name = "a"}, {.name = "own"}},
                   .complete =
                       [](const mcp::CompletionRequest& req, mcp::Context& ctx) {
                           return mcp::Completion{.values = {req.argument + ":" + req.value + ":" + req.context.at("b"),
                                                             ctx.stop_token().stop_requested() ? "stopped" : "running"},
                                                  .total = 7,
                                                  .has_more = true};
                       }},
                  [](const mcp::PromptArguments&) { return "p"; });
    server.complete_prompt_argument("forwarded", "own", mcp::complete_from({"mine"}));
    auto r = result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "forwarded"}}},
                                            {"argument", {{"name", "a"}, {"value", "x"}}},
                                            {"context", {{"arguments", {{"b", "y"}}}}}});
    EXPECT_EQ(boost::json::serialize(r), R"({"completion":{"values":["a:x:y","running"],"total":7,"hasMore":true}})");
    r = result("completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "forwarded"}}},
                                       {"argument", {{"name", "own"}, {"value", ""}}}});
    EXPECT_EQ(boost::json::serialize(r), R"({"completion":{"values":["mine"],"total":1,"hasMore":false}})");
}

TEST_F(Prompts, RegistrationRules) {
    EXPECT_THROW(server.prompt("letter", "dup", [] { return "x"; }), std::invalid_argument);
    EXPECT_THROW(server.prompt("nodesc", "", [] { return "x"; }), std::invalid_argument);
    EXPECT_THROW(server.prompt("", "d", [] { return "x"; }), std::invalid_argument);
}

namespace {

class Resources : public ServerTest {
protected:
    void SetUp() override {
        server.resource("test://static", {.mime_type = "text/plain"}, [] { return "static text"; });
        server.resource("test://bin", {.name = "bin"}, [] { return mcp::Blob{{1, 2, 3}, "application/x-demo"}; });
        server.resource_template("test://items/{id}", {.name = "item", .mime_type = "application/json"},
                                 [](int id) { return "{\"id\":" + std::to_string(id) + "}"; });
        server.resource_template("db://{table}/rows/{id}", {.name = "row"}, [](const RowRef& r) {
            if (r.table == "missing") throw mcp::ResourceNotFound("db://missing/rows/" + std::to_string(r.id));
            return r.table + "#" + std::to_string(r.id);
        });
        connect_and_initialize();
    }
};

}  // namespace

TEST_F(Resources, ListAndRead) {
    auto list = result("resources/list");
    EXPECT_EQ(boost::json::serialize(list.at("resources")),
              R"([{"uri":"test://bin","name":"bin"},{"uri":"test://static","name":"static","mimeType":"text/plain"}])");
    auto templates = result("resources/templates/list");
    EXPECT_EQ(templates.at("resourceTemplates").as_array().size(), 2u);
    EXPECT_EQ(templates.at("resourceTemplates").at(0).at("uriTemplate"), "db://{table}/rows/{id}");

    EXPECT_EQ(boost::json::serialize(result("resources/read", {{"uri", "test://static"}})),
              R"({"contents":[{"uri":"test://static","mimeType":"text/plain","text":"static text"}]})");
    EXPECT_EQ(boost::json::serialize(result("resources/read", {{"uri", "test://bin"}})),
              R"({"contents":[{"uri":"test://bin","mimeType":"application/x-demo","blob":"AQID"}]})");
}

TEST_F(Resources, TemplatesBindTypedVariables) {
    EXPECT_EQ(result("resources/read", {{"uri", "test://items/42"}}).at("contents").at(0).at("text"), "{\"id\":42}");
    EXPECT_EQ(result("resources/read", {{"uri", "db://users/rows/7"}}).at("contents").at(0).at("text"), "users#7");
    auto reply = call("resources/read", {{"uri", "test://items/abc"}});
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::invalid_params);
    EXPECT_NE(std::string(reply.at("error").at("message").as_string()).find("id"), std::string::npos);
}

TEST_F(Resources, UnknownResourcesAreNotFoundWithTheUri) {
    auto reply = call("resources/read", {{"uri", "test://nothing"}});
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::resource_not_found);
    EXPECT_EQ(reply.at("error").at("data").at("uri"), "test://nothing");
    reply = call("resources/read", {{"uri", "db://missing/rows/1"}});
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::resource_not_found);
    EXPECT_EQ(error_code("resources/read", {}), mcp::error_code::invalid_params);
}

TEST_F(Resources, TemplateRegistrationChecksTheHandler) {
    EXPECT_THROW(server.resource_template("t://{a}/{b}", {}, [](int) { return "x"; }), std::invalid_argument);
    EXPECT_THROW(server.resource_template("t://{a", {}, [](int) { return "x"; }), std::invalid_argument);
    EXPECT_THROW(server.resource_template("test://items/{id}", {}, [](int) { return "x"; }), std::invalid_argument);
    EXPECT_THROW(server.resource("test://static", {}, [] { return "x"; }), std::invalid_argument);
}

TEST_F(Resources, TemplateVariablesComplete) {
    server.complete_template_variable("db://{table}/rows/{id}", "table",
                                      mcp::complete_from({"users", "orders", "uploads"}));
    auto r = result("completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "db://{table}/rows/{id}"}}},
                                            {"argument", {{"name", "table"}, {"value", "u"}}}});
    EXPECT_EQ(boost::json::serialize(r.at("completion").at("values")), R"(["users","uploads"])");
}

TEST_F(Resources, ATemplatesCompletionHandlerIsCappedAt100) {
    mcp::ResourceSpec spec{.name = "many"};
    spec.complete = [](const mcp::CompletionRequest& req, mcp::Context&) {
        mcp::Completion out;
        for (int i = 0; i < 150; ++i) out.values.push_back(req.value + std::to_string(i));
        return out;
    };
    server.resource_template("many://{n}", std::move(spec), [](std::string_view n) { return std::string(n); });
    auto r = result("completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "many://{n}"}}},
                                            {"argument", {{"name", "n"}, {"value", "v"}}}});
    EXPECT_EQ(r.at("completion").at("values").as_array().size(), 100u);
    EXPECT_EQ(r.at("completion").at("values").at(99), "v99");
    EXPECT_EQ(r.at("completion").at("total"), 150);
    EXPECT_EQ(r.at("completion").at("hasMore"), true);
}

TEST_F(Resources, SubscribersAreToldOfUpdates) {
    EXPECT_EQ(boost::json::serialize(result("resources/subscribe", {{"uri", "test://static"}})), "{}");
    conn->take_notifications();
    server.notify_resource_updated("test://static");
    server.notify_resource_updated("test://bin");
    auto got = conn->take_notifications();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(boost::json::serialize(got[0]),
              R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"test://static"}})");
    result("resources/unsubscribe", {{"uri", "test://static"}});
    server.notify_resource_updated("test://static");
    EXPECT_TRUE(conn->take_notifications().empty());
}

TEST_F(Resources, WatchersHearEachSubscriptionOnceUntilItEnds) {
    std::vector<std::string> heard;  // the core calls the watcher on the request's thread: no race here
    server.watch_resource_subscriptions([&heard](std::string_view uri) -> std::function<void()> {
        if (uri == "test://refused") throw mcp::InvalidParams("not this one");
        heard.push_back("+" + std::string(uri));
        return [&heard, u = std::string(uri)] { heard.push_back("-" + u); };
    });
    result("resources/subscribe", {{"uri", "test://static"}});
    result("resources/subscribe", {{"uri", "test://static"}});  // the session has it already
    result("resources/unsubscribe", {{"uri", "test://bin"}});   // never subscribed
    EXPECT_EQ(error_code("resources/subscribe", {{"uri", "test://refused"}}), mcp::error_code::invalid_params);
    conn->take_notifications();
    server.notify_resource_updated("test://refused");
    EXPECT_TRUE(conn->take_notifications().empty());  // a refused subscription is not kept
    result("resources/unsubscribe", {{"uri", "test://static"}});
    result("resources/unsubscribe", {{"uri", "test://static"}});
    EXPECT_EQ(heard, (std::vector<std::string>{"+test://static", "-test://static"}));
    // The session's end releases what it still holds.
    result("resources/subscribe", {{"uri", "test://bin"}});
    conn.reset();
    EXPECT_EQ(heard, (std::vector<std::string>{"+test://static", "-test://static", "+test://bin", "-test://bin"}));
}

TEST_F(Resources, SubscribedUrisAreBoundedInLength) {
    // A subscription is kept for the session's life: 1000 of them with 4 MiB URIs would be 4 GiB.
    const std::string longest = "test://" + std::string(8 * 1024 - 7, 'a');
    EXPECT_EQ(boost::json::serialize(result("resources/subscribe", {{"uri", longest}})), "{}");
    EXPECT_EQ(error_code("resources/subscribe", {{"uri", longest + "a"}}), mcp::error_code::invalid_params);
}

TEST_F(Resources, ListChangesAreAnnounced) {
    conn->take_notifications();
    server.resource("test://new", {}, [] { return "n"; });
    server.tool("t", "d", [] { return "x"; });
    server.remove_tool("t");
    server.prompt("p", "d", [] { return "x"; });
    EXPECT_FALSE(server.remove_prompt("none"));
    std::vector<std::string> methods;
    for (auto& n : conn->take_notifications()) methods.emplace_back(n.at("method").as_string());
    EXPECT_EQ(methods,
              (std::vector<std::string>{"notifications/resources/list_changed", "notifications/tools/list_changed",
                                        "notifications/tools/list_changed", "notifications/prompts/list_changed"}));
}
