// Extensions (SEP-2133) and methods beside the protocol's, through the real core: the capability
// map in both eras, identifier and name rules, typed params, gating on the client's declaration,
// scopes, errors and hostile params.
#include "server_fixture.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <future>

using namespace testing_support;

namespace exttest {

struct Reindex {
    std::string index;
    std::optional<int> shards;
};
BOOST_DESCRIBE_STRUCT(Reindex, (), (index, shards))
inline void mcp_schema(mcp::json::SchemaHints<Reindex>& h) { h.field(&Reindex::shards).minimum(1).maximum(64); }

struct Reindexed {
    std::string index;
    int shards;
};
BOOST_DESCRIBE_STRUCT(Reindexed, (), (index, shards))

}  // namespace exttest

using namespace exttest;

namespace {

boost::json::object meta(boost::json::object caps = {}) {
    return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientInfo", {{"name", "gtest"}, {"version", "1"}}},
            {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

boost::json::object stateless(boost::json::object params, boost::json::object caps = {}) {
    params["_meta"] = meta(std::move(caps));
    return params;
}

std::shared_ptr<const mcp::Principal> principal(std::vector<std::string> scopes) {
    auto p = std::make_shared<mcp::Principal>();
    p->subject = "alice";
    p->scopes = std::move(scopes);
    return p;
}

class Extensions : public ServerTest {
protected:
    void SetUp() override {
        server.method("acme/reindex", [](const Reindex& in) {
            return Reindexed{"idx-" + in.index, in.shards.value_or(1)};
        });
        server.method("acme/status", [] {});
        tasks_like = std::make_unique<mcp::Extension>(
            server.extension({.id = "com.example/jobs", .settings = {{"poll", true}}, .methods_need_client = true}));
        tasks_like->method("jobs/get", [](const boost::json::object& params) {
            return boost::json::object{{"echo", params}};
        });
    }

    void initialize_with(boost::json::object capabilities) {
        conn = std::make_unique<mcp::LocalConnection>(server);
        auto reply = call("initialize", {{"protocolVersion", "2025-11-25"},
                                         {"capabilities", std::move(capabilities)},
                                         {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}});
        ASSERT_TRUE(reply.as_object().contains("result")) << boost::json::serialize(reply);
        conn->send(notification("notifications/initialized"));
    }

    std::unique_ptr<mcp::Extension> tasks_like;
};

}  // namespace

TEST_F(Extensions, AdvertisedInInitializeAndInDiscover) {
    server.extension("io.modelcontextprotocol/ui");
    conn = std::make_unique<mcp::LocalConnection>(server);
    const auto discovered = result("server/discover", stateless({}));
    const auto expected = boost::json::parse(R"({"com.example/jobs":{"poll":true},"io.modelcontextprotocol/ui":{}})");
    EXPECT_EQ(discovered.at("capabilities").at("extensions"), expected);

    connect_and_initialize();
    EXPECT_EQ(call("initialize", {{"protocolVersion", "2025-11-25"}}).at("error").at("code"),
              mcp::error_code::invalid_request);
    conn = std::make_unique<mcp::LocalConnection>(server);
    const auto init =
        result("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", boost::json::object()}});
    EXPECT_EQ(init.at("capabilities").at("extensions"), expected);
}

TEST_F(Extensions, NoExtensionNoMap) {
    mcp::Server plain({.name = "plain", .version = "1"});
    mcp::LocalConnection c(plain);
    auto reply = c.send(request(1, "server/discover", stateless({}))).back();
    EXPECT_FALSE(reply.at("result").at("capabilities").as_object().contains("extensions"));
}

TEST_F(Extensions, MalformedAndDuplicateIdsAreRefused) {
    for (const char* id : {"", "skills", "/skills", "io.example/", "1io/x", "io-/x", "io..x/y", "io.x-/y", "-io/x",
                           "io.x/-y", "io.x/y-", "io.x/y z", "io x/y", "io.x/y/z", "io_x/y", "io.x/é"}) {
        EXPECT_THROW(server.extension(id), std::invalid_argument) << id;
    }
    EXPECT_THROW(server.extension(std::string(300, 'a') + "/x"), std::invalid_argument);
    EXPECT_NO_THROW(server.extension("io.modelcontextprotocol/oauth-client-credentials"));
    EXPECT_NO_THROW(server.extension("com.example-2.x/a_b.c-9"));
    EXPECT_THROW(server.extension("com.example/jobs"), std::invalid_argument);  // declared in SetUp
}

TEST_F(Extensions, AVendorMethodIsTypedLikeAToolInBothEras) {
    connect_and_initialize();
    EXPECT_EQ(result("acme/reindex", {{"index", "notes"}, {"shards", 3}}),
              boost::json::parse(R"({"index":"idx-notes","shards":3})"));
    EXPECT_EQ(boost::json::serialize(result("acme/status")), "{}");

    conn = std::make_unique<mcp::LocalConnection>(server);
    const auto modern = result("acme/reindex", stateless({{"index", "notes"}}));
    EXPECT_EQ(modern.at("index"), "idx-notes");
    EXPECT_EQ(modern.at("resultType"), "complete");
    EXPECT_FALSE(modern.as_object().contains("ttlMs"));  // MethodCache::none
}

TEST_F(Extensions, ParamsAreValidatedAgainstTheSchemaAndTheEnvelopeIsLeftOut) {
    server.method({.name = "acme/strict",
                   .params_schema =
                       boost::json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],)"
                                          R"("additionalProperties":false})")
                           .as_object()},
                  [](const boost::json::object& p) { return p; });
    connect_and_initialize();
    auto reply = call("acme/reindex", {{"index", 7}});
    ASSERT_EQ(reply.at("error").at("code"), mcp::error_code::invalid_params) << boost::json::serialize(reply);
    EXPECT_NE(std::string(reply.at("error").at("message").as_string()).find("/index"), std::string::npos);
    EXPECT_EQ(error_code("acme/reindex", {{"index", "x"}, {"shards", 65}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("acme/reindex", {}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("acme/strict", {{"n", 1}, {"extra", true}}), mcp::error_code::invalid_params);

    conn = std::make_unique<mcp::LocalConnection>(server);
    EXPECT_EQ(result("acme/strict", stateless({{"n", 1}})).at("n"), 1);  // _meta is not a param
}

TEST_F(Extensions, HostileParamsGetAClearError) {
    server.method("acme/echo", [](const boost::json::object& p) { return p; });
    connect_and_initialize();
    // Wrong types at every level, a huge string, deep nesting: -32602 or a result, never a crash.
    EXPECT_EQ(error_code("acme/reindex", {{"index", boost::json::array{1, 2}}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("acme/reindex", {{"index", nullptr}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("acme/reindex", {{"index", "x"}, {"shards", 1.5}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("acme/reindex", {{"index", "x"}, {"shards", "9999999999999999999999"}}),
              mcp::error_code::invalid_params);
    EXPECT_EQ(result("acme/reindex", {{"index", std::string(1 << 20, 'a')}}).at("index").as_string().size(),
              (1u << 20) + 4);
    boost::json::value deep = 1;
    for (int i = 0; i < 60; ++i) deep = boost::json::object{{"a", std::move(deep)}};
    EXPECT_EQ(result("acme/echo", {{"x", deep}}).at("x").at("a").at("a").is_object(), true);
    auto reply = conn->send(boost::json::parse(R"({"jsonrpc":"2.0","id":99,"method":"acme/reindex","params":[1]})"));
    ASSERT_FALSE(reply.empty());
    EXPECT_TRUE(reply.back().as_object().contains("error")) << boost::json::serialize(reply.back());
}

TEST_F(Extensions, NamesOfTheProtocolAreRefused) {
    auto noop = [] {};
    for (const char* name : {"",
                             "tools/call",
                             "tools/mine",
                             "notifications/acme",
                             "sampling/createMessage",
                             "elicitation/create",
                             "roots/list",
                             "tasks/get",
                             "tasks/update",
                             "skills/list",
                             "ui/open",
                             "resources/directory/read",
                             "server/discover",
                             "initialize",
                             "ping",
                             "rpc.discover",
                             "completion/complete",
                             "subscriptions/listen",
                             "logging/setLevel",
                             "acme/has space",
                             "acme/tab\t",
                             "acme/\x7f",
                             "echo",
                             "/echo",
                             "acme/"}) {
        EXPECT_THROW(server.method(name, noop), std::invalid_argument) << name;
    }
    EXPECT_THROW(server.method(std::string(129, 'a'), noop), std::invalid_argument);
    EXPECT_THROW(server.method("acme/reindex", noop), std::invalid_argument);  // registered already
    EXPECT_THROW(tasks_like->method("acme/reindex", noop), std::invalid_argument);
    EXPECT_THROW(server.method({.name = "acme/array", .params_schema = boost::json::object{{"type", "array"}}}, noop),
                 std::invalid_argument);
    EXPECT_THROW(
        server.method({.name = "acme/bad", .params_schema = boost::json::object{{"type", "object"}, {"required", 1}}},
                      noop),
        std::invalid_argument);
    EXPECT_NO_THROW(server.method("acme/tools/list", noop));
    EXPECT_NO_THROW(server.method("com.example.search/query", noop));
}

TEST_F(Extensions, AnExtensionMayDefineMethodsInTheProtocolsAreasButNotServedOnes) {
    auto skills = server.extension("io.modelcontextprotocol/skills");
    EXPECT_NO_THROW(skills.method("skills/list", [] { return boost::json::object{{"skills", boost::json::array()}}; }));
    EXPECT_NO_THROW(skills.method("resources/directory/read", [] {}));
    EXPECT_THROW(skills.method("resources/read", [] {}), std::invalid_argument);
    EXPECT_THROW(skills.method("tools/list", [] {}), std::invalid_argument);
    EXPECT_THROW(skills.method("skills/list", [] {}), std::invalid_argument);
    connect_and_initialize();
    EXPECT_EQ(result("skills/list").at("skills"), boost::json::array());
}

TEST_F(Extensions, MethodsThatNeedTheClientsDeclarationAreGatedPerRequest) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    auto reply = call("jobs/get", stateless({{"id", "1"}}));
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::missing_required_client_capability);
    EXPECT_EQ(reply.at("error").at("data").at("requiredCapabilities"),
              boost::json::parse(R"({"extensions":{"com.example/jobs":{}}})"));
    // Declared in this request: served; the next request without it is refused again.
    const boost::json::object declared{{"extensions", {{"com.example/jobs", boost::json::object()}}}};
    EXPECT_EQ(result("jobs/get", stateless({{"id", "1"}}, declared)).at("echo").at("id"), "1");
    EXPECT_EQ(error_code("jobs/get", stateless({{"id", "1"}})), mcp::error_code::missing_required_client_capability);
    // Other client capabilities do not stand in for it.
    EXPECT_EQ(error_code("jobs/get", stateless({}, {{"extensions", {{"com.example/other", boost::json::object()}}}})),
              mcp::error_code::missing_required_client_capability);

    // 2025-11-25: negotiated once, at initialize.
    initialize_with({});
    EXPECT_EQ(error_code("jobs/get", {{"id", "2"}}), mcp::error_code::method_not_found);
    initialize_with(declared);
    EXPECT_EQ(result("jobs/get", {{"id", "2"}}).at("echo").at("id"), "2");
}

TEST_F(Extensions, ErasCacheHintsAndRoutingName) {
    server.method({.name = "acme/catalog", .eras = mcp::MethodEras::stateless, .cache = mcp::MethodCache::list}, [] {
        return boost::json::object{{"items", boost::json::array()}};
    });
    server.method({.name = "acme/old", .eras = mcp::MethodEras::sessions}, [] {});
    server.method({.name = "acme/job", .name_param = "jobId"}, [](const boost::json::object& p) { return p; });

    conn = std::make_unique<mcp::LocalConnection>(server);
    const auto listed = result("acme/catalog", stateless({}));
    EXPECT_TRUE(listed.as_object().contains("ttlMs"));
    EXPECT_EQ(listed.at("cacheScope"), "private");
    EXPECT_EQ(error_code("acme/old", stateless({})), mcp::error_code::method_not_found);

    mcp::RequestHeaders headers;
    headers.protocol_version = "2026-07-28";
    headers.method = "acme/job";
    headers.name = "other";
    std::promise<boost::json::value> answer;
    struct Sink : mcp::CallSink {
        std::promise<boost::json::value>* out;
        bool send(boost::json::value) override { return true; }
        void complete(std::optional<boost::json::value> r) override { out->set_value(r ? *r : boost::json::value()); }
    };
    auto sink = std::make_shared<Sink>();
    sink->out = &answer;
    server.handle(request(7, "acme/job", stateless({{"jobId", "j1"}})), mcp::Inbound{conn->session(), {}, &headers},
                  sink);
    EXPECT_EQ(answer.get_future().get().at("error").at("code"), mcp::error_code::header_mismatch);

    connect_and_initialize();
    EXPECT_EQ(error_code("acme/catalog"), mcp::error_code::method_not_found);
    EXPECT_EQ(boost::json::serialize(result("acme/old")), "{}");
}

TEST_F(Extensions, ScopesAreCheckedAndListedForTheMetadata) {
    server.method({.name = "acme/admin", .required_scopes = {"acme:admin"}}, [] {});
    const auto scopes = server.required_scopes();
    EXPECT_NE(std::find(scopes.begin(), scopes.end(), "acme:admin"), scopes.end());

    connect_and_initialize("2025-11-25", principal({"notes:read"}));
    auto reply = call("acme/admin");
    ASSERT_TRUE(reply.as_object().contains("error"));
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::forbidden);
    connect_and_initialize("2025-11-25", principal({"acme:admin"}));
    EXPECT_EQ(boost::json::serialize(result("acme/admin")), "{}");
}

TEST_F(Extensions, HandlerFailuresAreJsonRpcErrors) {
    server.method("acme/throws", []() -> boost::json::object { throw std::runtime_error("disk on fire"); });
    server.method("acme/refuses", []() -> boost::json::object { throw mcp::InvalidParams("no such index"); });
    server.method("acme/asks", [](mcp::Context& ctx) {
        ctx.elicit("Sure?", mcp::FormSchema{});
        return boost::json::object();
    });
    connect_and_initialize();
    auto reply = call("acme/throws");
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::internal_error);
    EXPECT_NE(std::string(reply.at("error").at("message").as_string()).find("disk on fire"), std::string::npos);
    EXPECT_EQ(error_code("acme/refuses"), mcp::error_code::invalid_params);

    // 2026-07-28 has multi-round trips on tools, prompts and resources only: no input_required here.
    conn = std::make_unique<mcp::LocalConnection>(server);
    reply = call("acme/asks", stateless({}, {{"elicitation", boost::json::object()}}));
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::internal_error);
}

TEST_F(Extensions, UnknownMethodsAndNotificationsStayUnknown) {
    connect_and_initialize();
    EXPECT_EQ(error_code("acme/nothing"), mcp::error_code::method_not_found);
    EXPECT_TRUE(conn->send(notification("acme/reindex", {{"index", "x"}})).empty());  // requests only
}
