// The 2026-07-28 era through the real core: envelope, routing headers, versions, removed methods,
// result fields, capability requirements, x-mcp-header, subscriptions/listen.
#include "server_fixture.hpp"

#include <boost/json/serialize.hpp>

#include <future>
#include <latch>

using namespace testing_support;

namespace {

boost::json::object envelope(boost::json::object caps = {}, std::string_view version = "2026-07-28") {
    return {{"io.modelcontextprotocol/protocolVersion", version},
            {"io.modelcontextprotocol/clientInfo", {{"name", "gtest"}, {"version", "1"}}},
            {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

boost::json::object with_meta(boost::json::object params, boost::json::object meta = envelope()) {
    params["_meta"] = std::move(meta);
    return params;
}

class Modern : public ServerTest {
protected:
    void SetUp() override {
        server.tool("echo", "Echo", [](const boost::json::object& a) { return std::string(a.at("text").as_string()); });
        server.tool({.name = "needs_sampling",
                     .description = "Requires sampling",
                     .required_client_capabilities = {"sampling"}},
                    [] { return "sampled"; });
        server.tool(
            {.name = "regional",
             .description = "Mirrors region into a header",
             .input_schema =
                 boost::json::parse(
                     R"({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}})")
                     .as_object()},
            [](const boost::json::object& a) { return boost::json::serialize(a); });
        server.resource("test://r", {.mime_type = "text/plain"}, [] { return "r"; });
        server.tool("logs", "Logs", [](mcp::ToolContext& ctx) {
            ctx.info("hello");
            return "done";
        });
        conn = std::make_unique<mcp::LocalConnection>(server);  // no initialize: stateless
    }

    std::vector<boost::json::value> send(std::string_view method, boost::json::object params,
                                         const mcp::RequestHeaders* headers = nullptr,
                                         const boost::json::value& id = 1) {
        std::vector<boost::json::value> out;
        std::promise<void> done;
        auto msg = request(id, method, std::move(params));
        mcp::Inbound inbound{conn->session(), {}, headers};
        struct Sink : mcp::CallSink {
            std::vector<boost::json::value>* out;
            std::promise<void>* done;
            bool send(boost::json::value m) override {
                out->push_back(std::move(m));
                return true;
            }
            void complete(std::optional<boost::json::value> r) override {
                if (r) out->push_back(std::move(*r));
                done->set_value();
            }
        };
        auto sink = std::make_shared<Sink>();
        sink->out = &out;
        sink->done = &done;
        server.handle(msg, inbound, sink);
        done.get_future().wait();
        return out;
    }

    boost::json::value last(std::string_view method, boost::json::object params,
                            const mcp::RequestHeaders* headers = nullptr) {
        auto out = send(method, std::move(params), headers);
        return out.empty() ? boost::json::value() : out.back();
    }

    static int code(const boost::json::value& reply) {
        if (!reply.is_object() || !reply.as_object().contains("error")) return 0;
        return static_cast<int>(reply.at("error").at("code").as_int64());
    }

    static mcp::RequestHeaders headers_for(std::string method, std::optional<std::string> name = std::nullopt) {
        mcp::RequestHeaders h;
        h.protocol_version = "2026-07-28";
        h.method = std::move(method);
        h.name = std::move(name);
        return h;
    }
};

}  // namespace

TEST_F(Modern, DiscoverNeedsNoInitialize) {
    auto r = last("server/discover", with_meta({})).at("result");
    EXPECT_EQ(boost::json::serialize(r.at("supportedVersions")), R"(["2026-07-28"])");
    EXPECT_TRUE(r.at("capabilities").as_object().contains("tools"));
    EXPECT_EQ(r.at("resultType"), "complete");
    EXPECT_EQ(r.at("ttlMs"), 0);
    EXPECT_EQ(r.at("cacheScope"), "private");
    EXPECT_EQ(r.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), "test");
}

TEST_F(Modern, EveryResultCarriesResultTypeAndCacheableOnesCarryHints) {
    auto tools = last("tools/list", with_meta({})).at("result");
    EXPECT_EQ(tools.at("resultType"), "complete");
    EXPECT_TRUE(tools.as_object().contains("ttlMs"));
    auto read = last("resources/read", with_meta({{"uri", "test://r"}})).at("result");
    EXPECT_EQ(read.at("cacheScope"), "private");
    auto call = last("tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "x"}}}})).at("result");
    EXPECT_EQ(call.at("resultType"), "complete");
    EXPECT_FALSE(call.as_object().contains("ttlMs"));
    EXPECT_EQ(call.at("_meta").at("io.modelcontextprotocol/serverInfo").at("version"), "1.0");
}

TEST_F(Modern, EnvelopeErrorsAreInvalidParams) {
    using mcp::error_code::invalid_params;
    EXPECT_EQ(code(last("server/discover", {})), invalid_params);
    auto no_version = envelope();
    no_version.erase("io.modelcontextprotocol/protocolVersion");
    EXPECT_EQ(code(last("tools/list", with_meta({}, no_version))), invalid_params);
    auto no_caps = envelope();
    no_caps.erase("io.modelcontextprotocol/clientCapabilities");
    EXPECT_EQ(code(last("tools/list", with_meta({}, no_caps))), invalid_params);
    auto bad_info = envelope();
    bad_info["io.modelcontextprotocol/clientInfo"] = "me";
    EXPECT_EQ(code(last("tools/list", with_meta({}, bad_info))), invalid_params);
    auto no_info = envelope();
    no_info.erase("io.modelcontextprotocol/clientInfo");
    EXPECT_EQ(code(last("tools/list", with_meta({}, no_info))), 0);  // clientInfo is optional
}

TEST_F(Modern, UnsupportedVersionListsTheSupportedOnes) {
    auto reply = last("server/discover", with_meta({}, envelope({}, "v999.0.0")));
    EXPECT_EQ(code(reply), mcp::error_code::unsupported_protocol_version);
    EXPECT_EQ(boost::json::serialize(reply.at("error").at("data")),
              R"({"supported":["2026-07-28"],"requested":"v999.0.0"})");
    EXPECT_EQ(reply.at("id"), 1);
}

TEST_F(Modern, RemovedAndUnknownMethodsAreNotFound) {
    for (const char* m :
         {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method"}) {
        EXPECT_EQ(code(last(m, with_meta({{"uri", "test://r"}, {"level", "info"}}))), mcp::error_code::method_not_found)
            << m;
    }
}

TEST_F(Modern, RoutingHeadersMustMatchTheBody) {
    auto call = with_meta({{"name", "echo"}, {"arguments", {{"text", "x"}}}});
    auto ok = headers_for("tools/call", "echo");
    EXPECT_EQ(code(last("tools/call", call, &ok)), 0);
    auto b64 = headers_for("tools/call", "=?base64?ZWNobw==?=");
    EXPECT_EQ(code(last("tools/call", call, &b64)), 0);

    using mcp::error_code::header_mismatch;
    auto wrong_method = headers_for("prompts/list", "echo");
    EXPECT_EQ(code(last("tools/call", call, &wrong_method)), header_mismatch);
    auto upper = headers_for("TOOLS/CALL", "echo");
    EXPECT_EQ(code(last("tools/call", call, &upper)), header_mismatch);
    auto wrong_name = headers_for("tools/call", "other");
    EXPECT_EQ(code(last("tools/call", call, &wrong_name)), header_mismatch);
    auto no_name = headers_for("tools/call");
    EXPECT_EQ(code(last("tools/call", call, &no_name)), header_mismatch);
    auto bad_b64 = headers_for("tools/call", "=?base64?ZWNobw?=");
    EXPECT_EQ(code(last("tools/call", call, &bad_b64)), header_mismatch);
    auto no_method = headers_for("tools/call", "echo");
    no_method.method.reset();
    EXPECT_EQ(code(last("tools/call", call, &no_method)), header_mismatch);
    auto version = headers_for("tools/call", "echo");
    version.protocol_version = "2025-11-25";
    EXPECT_EQ(code(last("tools/call", call, &version)), header_mismatch);
}

TEST_F(Modern, HeaderMismatchComesBeforeUnsupportedVersion) {
    auto h = headers_for("server/discover");
    EXPECT_EQ(code(last("server/discover", with_meta({}, envelope({}, "v999.0.0")), &h)),
              mcp::error_code::header_mismatch);
    h.protocol_version = "v999.0.0";
    EXPECT_EQ(code(last("server/discover", with_meta({}, envelope({}, "v999.0.0")), &h)),
              mcp::error_code::unsupported_protocol_version);
}

TEST_F(Modern, RequiredClientCapabilities) {
    auto reply = last("tools/call", with_meta({{"name", "needs_sampling"}}));
    EXPECT_EQ(code(reply), mcp::error_code::missing_required_client_capability);
    EXPECT_EQ(boost::json::serialize(reply.at("error").at("data")), R"({"requiredCapabilities":{"sampling":{}}})");
    EXPECT_EQ(
        last("tools/call", with_meta({{"name", "needs_sampling"}}, envelope({{"sampling", boost::json::object()}})))
            .at("result")
            .at("content")
            .at(0)
            .at("text"),
        "sampled");
}

TEST_F(Modern, ParameterHeadersAreValidated) {
    auto call = with_meta({{"name", "regional"}, {"arguments", {{"region", "us-west1"}, {"n", 42}}}});
    auto h = headers_for("tools/call", "regional");
    h.params = {{"region", "us-west1"}, {"n", "42.0"}};
    EXPECT_EQ(code(last("tools/call", call, &h)), 0);
    h.params = {{"region", "=?base64?dXMtd2VzdDE=?="}, {"n", "42"}};
    EXPECT_EQ(code(last("tools/call", call, &h)), 0);
    h.params = {{"n", "42"}};
    EXPECT_EQ(code(last("tools/call", call, &h)), mcp::error_code::header_mismatch);
    h.params = {{"region", "eu"}, {"n", "42"}};
    EXPECT_EQ(code(last("tools/call", call, &h)), mcp::error_code::header_mismatch);
    h.params = {{"region", "us-west1"}, {"n", "41"}};
    EXPECT_EQ(code(last("tools/call", call, &h)), mcp::error_code::header_mismatch);
    // No value in the body, no header expected.
    auto empty = with_meta({{"name", "regional"}, {"arguments", boost::json::object()}});
    h.params.clear();
    EXPECT_EQ(code(last("tools/call", empty, &h)), 0);
}

TEST_F(Modern, InvalidHeaderAnnotationsAreRefusedAtRegistration) {
    auto tool = [&](std::string_view schema) {
        server.tool({.name = "bad", .description = "d", .input_schema = boost::json::parse(schema).as_object()},
                    [](const boost::json::object&) { return "x"; });
    };
    EXPECT_THROW(tool(R"({"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}})"),
                 std::invalid_argument);
    EXPECT_THROW(tool(R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}})"),
                 std::invalid_argument);
    EXPECT_THROW(
        tool(
            R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}})"),
        std::invalid_argument);
    EXPECT_THROW(
        tool(R"({"type":"object","properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}})"),
        std::invalid_argument);
    EXPECT_THROW(tool(R"({"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]})"),
                 std::invalid_argument);
}

TEST_F(Modern, LogsOnlyWhenTheRequestAsksForThem) {
    auto out = send("tools/call", with_meta({{"name", "logs"}}));
    EXPECT_EQ(out.size(), 1u);
    auto meta = envelope();
    meta["io.modelcontextprotocol/logLevel"] = "info";
    out = send("tools/call", with_meta({{"name", "logs"}}, meta));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].at("method"), "notifications/message");
}

TEST_F(Modern, UnknownResourceIsInvalidParamsWithTheUri) {
    auto reply = last("resources/read", with_meta({{"uri", "test://none"}}));
    EXPECT_EQ(code(reply), mcp::error_code::invalid_params);
    EXPECT_EQ(reply.at("error").at("data").at("uri"), "test://none");
}

TEST_F(Modern, ListenAcknowledgesThenStreamsOnlyRequestedNotifications) {
    std::vector<boost::json::value> tools_stream, prompts_stream;
    std::mutex m;
    std::promise<void> tools_done;
    auto open = [&](boost::json::object filter, const boost::json::value& id, std::vector<boost::json::value>* into,
                    std::promise<void>* done) {
        conn->send_async(
            request(id, "subscriptions/listen", with_meta({{"notifications", std::move(filter)}})),
            [&, into](const boost::json::value& msg) {
                std::lock_guard lock(m);
                into->push_back(msg);
            },
            [done] {
                if (done) done->set_value();
            });
    };
    open({{"toolsListChanged", true}, {"resourceSubscriptions", {"test://r"}}}, "L1", &tools_stream, &tools_done);
    open({{"promptsListChanged", true}}, 7, &prompts_stream, nullptr);
    server.tool("added", "Added later", [] { return "x"; });
    server.notify_resource_updated("test://r");
    server.notify_resource_updated("test://other");
    {
        std::lock_guard lock(m);
        ASSERT_EQ(tools_stream.size(), 3u);
        EXPECT_EQ(tools_stream[0].at("method"), "notifications/subscriptions/acknowledged");
        EXPECT_EQ(boost::json::serialize(tools_stream[0].at("params").at("notifications")),
                  R"({"toolsListChanged":true,"resourceSubscriptions":["test://r"]})");
        EXPECT_EQ(tools_stream[1].at("method"), "notifications/tools/list_changed");
        EXPECT_EQ(tools_stream[1].at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), "L1");
        EXPECT_EQ(tools_stream[2].at("method"), "notifications/resources/updated");
        ASSERT_EQ(prompts_stream.size(), 1u);  // only its acknowledgement
        EXPECT_EQ(prompts_stream[0].at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 7);
    }
    // notifications/cancelled ends the stream without a response.
    conn->send(notification("notifications/cancelled", {{"requestId", "L1"}}));
    ASSERT_EQ(tools_done.get_future().wait_for(std::chrono::seconds(5)), std::future_status::ready);
    server.tool("added2", "Added later", [] { return "x"; });
    std::lock_guard lock(m);
    EXPECT_EQ(tools_stream.size(), 3u);
}

TEST_F(Modern, ShutdownEndsListenStreamsGracefully) {
    std::promise<boost::json::value> last_message;
    auto messages = std::make_shared<std::vector<boost::json::value>>();
    conn->send_async(
        request(9, "subscriptions/listen", with_meta({{"notifications", {{"toolsListChanged", true}}}})),
        [messages](const boost::json::value& msg) { messages->push_back(msg); },
        [&] { last_message.set_value(messages->back()); });
    server.shutdown();
    auto end = last_message.get_future().get();
    EXPECT_EQ(end.at("id"), 9);
    EXPECT_EQ(end.at("result").at("resultType"), "complete");
    EXPECT_EQ(end.at("result").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 9);
}

// A request the server parsed itself has its client's state made in the message's arena; a copy
// of the exchange a handler keeps must keep that arena, while later messages take new ones.
TEST_F(Modern, AKeptExchangeOutlivesTheMessageItsClientStateCameFrom) {
    std::optional<mcp::Exchange> kept;
    server.tool({.name = "keep", .description = "Keeps its exchange", .runs_inline = true}, [&](mcp::ToolContext& ctx) {
        if (!kept) kept.emplace(ctx.exchange());
        return "kept";
    });
    const auto call_as_text = [&](int id, std::string_view client) {
        auto meta = envelope();
        meta["io.modelcontextprotocol/clientInfo"] = {{"name", client}, {"version", "1"}};
        const auto text = boost::json::serialize(request(id, "tools/call", with_meta({{"name", "keep"}}, meta)));
        std::promise<void> done;
        struct Sink : mcp::CallSink {
            std::promise<void>* done;
            bool send(boost::json::value) override { return true; }
            void complete(std::optional<boost::json::value>) override { done->set_value(); }
        };
        auto sink = std::make_shared<Sink>();
        sink->done = &done;
        server.handle(text, mcp::Inbound{conn->session(), {}, nullptr}, sink);
        done.get_future().wait();
    };
    call_as_text(1, "first");  // short: held in the state itself, in the arena
    for (int id = 2; id < 40; ++id) call_as_text(id, "later");
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->client_info().name, "first");
    EXPECT_EQ(kept->client_info().version, "1");
}
