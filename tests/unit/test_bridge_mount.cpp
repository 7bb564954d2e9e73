// mcp::Mount: the naming and URI rules (hostile input too), and one mcp::Server mounted in another,
// both in process, for every pair of revisions (outer client x inner client): lists, list_changed,
// calls, progress, cancellation, the inner server's errors, an inner client that goes away.
#include "bridge/mount_names.hpp"
#include "client_test_server.hpp"
#include "client_test_support.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <stop_token>
#include <thread>
#include <tuple>

using namespace std::chrono_literals;
using client_testing::eventually;
using client_testing::first_text;
using mcp::detail::mount_prefix;
using mcp::detail::mounted_name;
using mcp::detail::mounted_uri;
using mcp::detail::unmounted_uri;

namespace {

std::string text_of(const mcp::ResourceContents& contents) {
    const auto* t = std::get_if<mcp::TextResourceContents>(&contents);
    return t != nullptr ? t->text : "(not text)";
}

std::string uri_of(const mcp::ResourceContents& contents) {
    return std::visit([](const auto& c) { return c.uri; }, contents);
}

template <class T, class Name>
bool lists(const std::vector<T>& items, const std::string& wanted, Name name) {
    return std::any_of(items.begin(), items.end(), [&](const T& item) { return name(item) == wanted; });
}

bool has_tool(mcp::Client& client, const std::string& name) {
    return lists(client.all_tools({.fresh = true}), name, [](const mcp::Tool& t) { return t.name; });
}

}  // namespace

// ---- The rules, pure.

TEST(MountNames, ToolAndPromptNamesArePrefixed) {
    EXPECT_EQ(mounted_name("fs", "read_file"), "fs_read_file");
    EXPECT_EQ(mounted_name("a", std::string(62, 'x')), "a_" + std::string(62, 'x'));  // 64: the most
    EXPECT_EQ(mounted_name("ab", std::string(62, 'x')), std::nullopt);                // 65
}

TEST(MountNames, PrefixKeepsOnlyNameCharacters) {
    EXPECT_EQ(mount_prefix("server-everything"), "server-everything");
    EXPECT_EQ(mount_prefix("my server/v2"), "my_server_v2");
    EXPECT_EQ(mount_prefix("a.b"), "a.b");
    EXPECT_EQ(mount_prefix("\xc3\xa9t\xc3\xa9"), "__t__");
}

TEST(MountNames, UrisKeepTheirSchemeAndGainThePrefixFirst) {
    EXPECT_EQ(mounted_uri("fs", "file:///tmp/a.txt"), "file://fs//tmp/a.txt");
    EXPECT_EQ(mounted_uri("mem", "memory://graph"), "memory://mem/graph");
    EXPECT_EQ(mounted_uri("x", "urn:isbn:123"), "urn:x/isbn:123");
    EXPECT_EQ(mounted_uri("x", "s:/abs"), "s:x//abs");
    EXPECT_EQ(mounted_uri("x", "test://items/{id}"), "test://x/items/{id}");
    EXPECT_EQ(mounted_uri("x", "ui://widget"), "ui://x/widget");
}

TEST(MountNames, EveryMountedUriGoesBackExactly) {
    for (const char* uri : {"file:///tmp/a.txt", "memory://graph", "urn:isbn:123", "s:/abs", "s:", "s://", "s:///",
                            "test://items/{id}", "a+b.c-d://h:1/p?q#f", "x://x/x"}) {
        const auto outer = mounted_uri("pre", uri);
        ASSERT_TRUE(outer) << uri;
        EXPECT_EQ(unmounted_uri("pre", *outer), uri) << *outer;
        EXPECT_EQ(unmounted_uri("other", *outer), std::nullopt) << *outer;
        EXPECT_EQ(unmounted_uri("pr", *outer), std::nullopt) << *outer;  // a prefix of the prefix
    }
}

TEST(MountNames, HostileUrisAreNotMountedOrNotOurs) {
    for (const char* uri : {"", ":", "://x", "{scheme}://x", "1abc://x", "no scheme at all", "sch eme://x", "/a/b"}) {
        EXPECT_EQ(mounted_uri("p", uri), std::nullopt) << uri;
        EXPECT_EQ(unmounted_uri("p", uri), std::nullopt) << uri;
    }
    EXPECT_EQ(unmounted_uri("p", "s://p"), std::nullopt);      // the prefix, but no '/' after it
    EXPECT_EQ(unmounted_uri("p", "s://px/a"), std::nullopt);   // another prefix that starts alike
    EXPECT_EQ(unmounted_uri("p", "s://q/p/a"), std::nullopt);  // the prefix elsewhere
    EXPECT_EQ(unmounted_uri("p", "s://p/"), "s://");           // an empty rest is one too
}

TEST(MountNames, AnEmptyPrefixLeavesNamesAndUrisAsTheyAre) {
    EXPECT_EQ(mounted_name("", "read_file"), "read_file");
    EXPECT_EQ(mounted_name("", std::string(64, 'x')), std::string(64, 'x'));
    EXPECT_EQ(mounted_uri("", "file:///tmp/a"), "file:///tmp/a");
    EXPECT_EQ(unmounted_uri("", "file:///tmp/a"), "file:///tmp/a");
    EXPECT_EQ(mounted_uri("", "no scheme"), std::nullopt);
}

TEST(MountNames, APrefixOutsideTheNameCharactersIsRefused) {
    mcp::Server server{{.name = "outer", .version = "1"}};
    EXPECT_THROW(mcp::Mount(server, "a b", {}), std::invalid_argument);
    EXPECT_THROW(mcp::Mount(server, "a/b", {}), std::invalid_argument);
}

// ---- A server mounted in another, for each (outer client, inner client) revision.

class MountInProcess : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountInProcess() {
        client_testing::add_test_tools(inner, seen);
        inner.tool("strict", "Refuses with a protocol error", []() -> std::string {
            throw mcp::Error(mcp::error_code::invalid_params, "no such thing", boost::json::object{{"which", 7}});
        });
        outer.tool("own", "The outer server's own tool", [] { return std::string("mine"); });
    }

    // Mounts `inner` under "in" with the inner client pinned to the second parameter, then connects
    // the outer client with the first.
    mcp::Client& start(mcp::ClientHandlers outer_handlers = {}) {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
        mcp::ClientOptions outer_options;
        outer_options.protocol_version = std::get<0>(GetParam());
        outer_options.handlers = std::move(outer_handlers);
        client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(outer_options));
        client->connect();
        return *client;
    }

    // The mount first: its inner client's callbacks (progress relayed to the outer call) end with it,
    // so none is still delivering to the outer client while that one closes.
    void TearDown() override {
        mounted.reset();
        if (client) client->close();
    }

    client_testing::Observed seen;
    mcp::Server inner{{.name = "inner", .version = "1"}};
    mcp::Server outer{{.name = "outer", .version = "1"}, {.validate_tool_output = false}};
    std::shared_ptr<mcp::Mount> mounted;
    std::unique_ptr<mcp::Client> client;
    std::atomic<int> outer_tool_changes{0};
};

TEST_P(MountInProcess, ListsTheInnerServerUnderThePrefix) {
    auto& c = start();
    auto tools = c.all_tools();
    EXPECT_TRUE(lists(tools, "in_echo", [](const mcp::Tool& t) { return t.name; }));
    EXPECT_TRUE(lists(tools, "in_add", [](const mcp::Tool& t) { return t.name; }));
    EXPECT_TRUE(lists(tools, "own", [](const mcp::Tool& t) { return t.name; }));
    EXPECT_FALSE(lists(tools, "echo", [](const mcp::Tool& t) { return t.name; }));
    const auto add = std::find_if(tools.begin(), tools.end(), [](const mcp::Tool& t) { return t.name == "in_add"; });
    ASSERT_NE(add, tools.end());
    EXPECT_EQ(add->description, "Adds two numbers");
    EXPECT_TRUE(add->input_schema.contains("properties"));
    EXPECT_TRUE(add->output_schema.has_value());

    EXPECT_TRUE(lists(c.all_prompts(), "in_greet", [](const mcp::Prompt& p) { return p.name; }));
    EXPECT_TRUE(lists(c.all_resources(), "test://in/static", [](const mcp::Resource& r) { return r.uri; }));
    EXPECT_TRUE(lists(c.all_resource_templates(), "test://in/items/{id}",
                      [](const mcp::ResourceTemplate& t) { return t.uri_template; }));
}

TEST_P(MountInProcess, ForwardsCallsReadsAndPrompts) {
    auto& c = start();
    const auto echoed = c.call_tool("in_echo", {{"text", "through"}});
    EXPECT_EQ(first_text(echoed), "through");
    // The answer is the outer server's: the inner hop's envelope does not come along.
    if (const auto* info = echoed.meta.if_contains("io.modelcontextprotocol/serverInfo")) {
        EXPECT_EQ(info->at("name").as_string(), "outer");
    }
    const auto sum = c.call_tool("in_add", {{"a", 2}, {"b", 40}});
    ASSERT_TRUE(sum.structured_content);
    EXPECT_EQ(sum.structured_content->at("sum").as_int64(), 42);

    const auto prompt = c.get_prompt("in_greet", {{"name", "Ada"}});
    ASSERT_EQ(prompt.messages.size(), 1U);
    EXPECT_EQ(std::get<mcp::TextContent>(prompt.messages[0].content).text, "Hello Ada");

    const auto fixed = c.read_resource("test://in/static");
    ASSERT_EQ(fixed.contents.size(), 1U);
    EXPECT_EQ(text_of(fixed.contents[0]), "static text");
    EXPECT_EQ(uri_of(fixed.contents[0]), "test://in/static");  // the URI as the outer client knows it

    const auto item = c.read_resource("test://in/items/42");
    ASSERT_EQ(item.contents.size(), 1U);
    EXPECT_EQ(text_of(item.contents[0]), "item 42");
    EXPECT_EQ(uri_of(item.contents[0]), "test://in/items/42");
}

TEST_P(MountInProcess, TheInnerServersErrorsArriveAsTheyWere) {
    auto& c = start();
    const auto failed = c.call_tool("in_fails");
    EXPECT_TRUE(failed.is_error);
    EXPECT_EQ(first_text(failed), "boom");
    try {
        c.call_tool("in_strict");
        ADD_FAILURE() << "no error";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_EQ(e.message(), "no such thing");
        EXPECT_EQ(e.data().at("which").as_int64(), 7);
    }
}

TEST_P(MountInProcess, InnerListChangesReachTheOuterClient) {
    // The counter is the fixture's: TearDown's unmount is itself a change, heard after this body ends.
    mcp::ClientHandlers handlers;
    handlers.list_changed = [this](mcp::ListKind kind) {
        if (kind == mcp::ListKind::tools) ++outer_tool_changes;
    };
    auto& c = start(handlers);
    mcp::Subscription changes;  // 2026: changes come when asked
    if (c.era() == mcp::Era::stateless) changes = c.listen({.tools_list_changed = true});

    inner.tool("late", "Registered after the mount", [] { return std::string("late"); });
    EXPECT_TRUE(eventually([&] { return has_tool(c, "in_late"); }));
    EXPECT_EQ(first_text(c.call_tool("in_late")), "late");

    inner.remove_tool("echo");
    EXPECT_TRUE(eventually([&] { return !has_tool(c, "in_echo"); }));
    EXPECT_TRUE(eventually([&] { return outer_tool_changes.load() >= 2; }));
    EXPECT_TRUE(has_tool(c, "in_add"));  // what did not change stays
}

TEST_P(MountInProcess, ProgressAndCancellationPassThrough) {
    auto& c = start();
    std::atomic<int> progress{0};
    const auto done =
        c.call_tool("in_slow", {{"steps", 3}, {"step_ms", 30}},
                    {.on_progress = [&](const mcp::Progress& p) { progress = static_cast<int>(p.progress); }});
    EXPECT_EQ(first_text(done), "done");
    // The last step's progress may come after the result, and is dropped then; the others pass.
    EXPECT_TRUE(eventually([&] { return progress.load() >= 2; }));

    std::stop_source stop;
    auto cancelled = std::async(std::launch::async, [&] {
        // `stop` by value (a copy shares its state): progress queued before the cancellation took
        // hold is still handed over after this body, until TearDown closes the client.
        return c.call_tool(
            "in_slow", {{"steps", 500}, {"step_ms", 20}},
            {.stop = stop.get_token(), .on_progress = [stop](const mcp::Progress&) mutable { stop.request_stop(); }});
    });
    EXPECT_THROW(cancelled.get(), mcp::Cancelled);
    EXPECT_TRUE(eventually([&] { return seen.cancellations.load() == 1; }));  // the inner call stopped too
}

TEST_P(MountInProcess, RemovingTheMountRemovesItsEntries) {
    auto& c = start();
    ASSERT_TRUE(has_tool(c, "in_echo"));
    mounted.reset();
    EXPECT_FALSE(has_tool(c, "in_echo"));
    EXPECT_TRUE(has_tool(c, "own"));
    EXPECT_TRUE(c.all_resource_templates({.fresh = true}).empty());
}

INSTANTIATE_TEST_SUITE_P(Revisions, MountInProcess,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         [](const auto& param_info) {
                             auto name =
                                 "outer" + std::get<0>(param_info.param) + "_inner" + std::get<1>(param_info.param);
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

// ---- When the inner server cannot answer.

TEST(MountFailures, ANameTheServerHasAlreadyIsLeftOutAndTheRestMounted) {
    mcp::Server inner{{.name = "inner", .version = "1"}};
    inner.tool("echo", "inner echo", [] { return std::string("inner"); });
    inner.tool("other", "inner other", [] { return std::string("other"); });
    mcp::Server outer{{.name = "outer", .version = "1"}};
    outer.tool("in_echo", "the outer server's own", [] { return std::string("outer"); });
    auto m = mcp::mount(outer, "in", mcp::in_process(inner));
    mcp::Client c(mcp::in_process(outer));
    c.connect();
    EXPECT_EQ(first_text(c.call_tool("in_echo")), "outer");
    EXPECT_EQ(first_text(c.call_tool("in_other")), "other");
    m.reset();
    EXPECT_EQ(first_text(c.call_tool("in_echo")), "outer");  // the mount never owned it
}

TEST(MountFailures, NoClientIsAnErrorNamingTheMount) {
    mcp::Server outer{{.name = "outer", .version = "1"}};
    mcp::Mount m(outer, "gone", [] { return std::shared_ptr<mcp::Client>(); });
    m.sync({.tools = {mcp::Tool{.name = "echo", .description = "d", .input_schema = {{"type", "object"}}}}});
    mcp::Client c(mcp::in_process(outer));
    c.connect();
    try {
        c.call_tool("gone_echo");
        ADD_FAILURE() << "no error";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::internal_error);
        EXPECT_NE(e.message().find("\"gone\""), std::string::npos) << e.message();
    }
}

TEST(MountFailures, AnInnerClientClosedMidCallFailsTheCallAtOnce) {
    client_testing::Observed seen;
    mcp::Server inner{{.name = "inner", .version = "1"}};
    client_testing::add_test_tools(inner, seen);
    mcp::Server outer{{.name = "outer", .version = "1"}, {.validate_tool_output = false}};
    auto inner_client = std::make_shared<mcp::Client>(mcp::in_process(inner));
    inner_client->connect();
    auto m = mcp::mount(outer, "in", inner_client);
    mcp::Client c(mcp::in_process(outer));
    c.connect();

    std::promise<void> started;
    auto call = std::async(std::launch::async, [&] {
        return c.call_tool("in_slow", {{"steps", 500}, {"step_ms", 20}},
                           {.on_progress = [&, once = std::make_shared<std::once_flag>()](const mcp::Progress&) {
                               std::call_once(*once, [&] { started.set_value(); });
                           }});
    });
    started.get_future().wait();
    inner_client->close();  // as when the inner server's process dies
    try {
        call.get();
        ADD_FAILURE() << "no error";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::internal_error);
        EXPECT_NE(e.message().find("cannot be reached"), std::string::npos) << e.message();
    }
    // Later calls fail at once too, and the outer server goes on serving its own.
    EXPECT_THROW(c.call_tool("in_echo", {{"text", "x"}}), mcp::Error);
}

TEST(MountFailures, SyncMakesTheRegistrationsEqualToTheCatalog) {
    mcp::Server outer{{.name = "outer", .version = "1"}};
    mcp::Mount m(outer, "m", [] { return std::shared_ptr<mcp::Client>(); });
    const boost::json::object schema{{"type", "object"}};
    m.sync({.tools = {mcp::Tool{.name = "a",
                                .description = "one",
                                .input_schema = schema,
                                .meta = {{"ui", {{"resourceUri", "ui://view"}, {"visibility", {"model"}}}}}},
                      mcp::Tool{.name = "b", .title = "Bee", .input_schema = schema}},
            .resources = {mcp::Resource{.uri = "no-scheme", .name = "bad"}, mcp::Resource{.uri = "x://r", .name = "r"}},
            .templates = {mcp::ResourceTemplate{.uri_template = "{s}://t", .name = "bad"}}});
    mcp::Client c(mcp::in_process(outer));
    c.connect();
    auto tools = c.all_tools({.fresh = true});
    ASSERT_EQ(tools.size(), 2U);
    EXPECT_EQ(tools[1].name, "m_b");
    EXPECT_EQ(tools[1].description, "Bee");                  // the title stands in for a missing description
    ASSERT_EQ(c.all_resources({.fresh = true}).size(), 1U);  // the URI without a scheme left out
    EXPECT_TRUE(c.all_resource_templates({.fresh = true}).empty());

    EXPECT_EQ(tools[0].meta.at("ui").at("resourceUri").as_string(), "ui://m/view");  // an MCP App's view, mounted

    m.sync({.tools = {mcp::Tool{.name = "a", .description = "two", .input_schema = schema}}});
    tools = c.all_tools({.fresh = true});
    ASSERT_EQ(tools.size(), 1U);
    EXPECT_EQ(tools[0].description, "two");
    EXPECT_TRUE(c.all_resources({.fresh = true}).empty());
}

TEST(MountFailures, AHostileCatalogMountsWhatItCanAndLeavesOutTheRest) {
    mcp::Server outer{{.name = "outer", .version = "1"}};
    outer.resource("x://m/taken", {.name = "own"}, [] { return std::string("outer's own"); });
    mcp::Mount m(outer, "m", [] { return std::shared_ptr<mcp::Client>(); });
    const boost::json::object schema{{"type", "object"}};
    mcp::MountCatalog catalog{
        .tools = {mcp::Tool{.name = "a b", .description = "a space", .input_schema = schema},
                  mcp::Tool{.name = "string_root", .description = "d", .input_schema = {{"type", "string"}}},
                  mcp::Tool{.name = "twice", .description = "first", .input_schema = schema},
                  mcp::Tool{.name = "twice", .description = "second", .input_schema = schema},
                  mcp::Tool{.name = "ok", .description = "d", .input_schema = schema}},
        .resources = {mcp::Resource{.uri = "x://taken", .name = "collides"},
                      mcp::Resource{.uri = "x://free", .name = "f"}},
        .templates = {mcp::ResourceTemplate{.uri_template = "x://{unclosed", .name = "bad"},
                      mcp::ResourceTemplate{.uri_template = "x://items/{id}", .name = "good"}}};
    for (int i = 0; i < 500; ++i) {
        catalog.tools.push_back(
            mcp::Tool{.name = "many_" + std::to_string(i), .description = "d", .input_schema = schema});
    }
    m.sync(catalog);

    mcp::Client c(mcp::in_process(outer));
    c.connect();
    const auto tools = c.all_tools();
    ASSERT_EQ(tools.size(), 502U);  // ok, one of the twice, the 500
    EXPECT_TRUE(lists(tools, "m_ok", [](const mcp::Tool& t) { return t.name; }));
    EXPECT_TRUE(lists(tools, "m_twice", [](const mcp::Tool& t) { return t.name; }));
    EXPECT_TRUE(lists(tools, "m_many_499", [](const mcp::Tool& t) { return t.name; }));
    const auto resources = c.all_resources();
    ASSERT_EQ(resources.size(), 2U);  // the outer server's own, and x://m/free
    EXPECT_EQ(text_of(c.read_resource("x://m/taken").contents.at(0)), "outer's own");
    const auto templates = c.all_resource_templates();
    ASSERT_EQ(templates.size(), 1U);
    EXPECT_EQ(templates[0].uri_template, "x://m/items/{id}");

    // Syncing the same catalog again changes nothing, and an empty one removes only the mount's.
    m.sync(catalog);
    EXPECT_EQ(c.all_tools({.fresh = true}).size(), 502U);
    m.sync({});
    EXPECT_TRUE(c.all_tools({.fresh = true}).empty());
    EXPECT_EQ(c.all_resources({.fresh = true}).size(), 1U);
}
