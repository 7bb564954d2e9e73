// mcp::Client over HTTP against servers nobody here wrote, each with protocol_version "auto":
// @modelcontextprotocol/server-everything on Streamable HTTP and in its SSE mode; the example
// servers of @modelcontextprotocol/sdk 1.32.2 (sessions with SSE or JSON answers, stateless,
// HTTP+SSE of 2024-11-05, both at once); a 2026-07-28 server written with
// @modelcontextprotocol/server 2.4.0 (tests/e2e/interop_v2_server.mjs). And mcp-cpp's own demo on
// both wires, one node, then two sharing a redis-server behind a relay that sends each new
// connection to a live node: the client keeps its 2025 session when its node is killed.
//
// The Node servers run as `node --import listen_loopback.mjs`, which puts them on a free port of
// 127.0.0.1 whatever port they ask for.
#include "client_test_support.hpp"
#include "demo_server.hpp"
#include "interop_support.hpp"
#include "node_server.hpp"
#include "redis_server.hpp"
#include "tcp_relay.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/http.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>

using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using client_testing::eventually;
using interop::contains;
using interop::has_tool;
using interop::text_of;
using testing_support::NodeServer;

const fs::path kModules = fs::path(MCP_E2E_DIR) / "node_modules" / "@modelcontextprotocol";
const fs::path kSdkExamples = kModules / "sdk" / "dist" / "esm" / "examples" / "server";

NodeServer node_server(const fs::path& script, std::vector<std::string> args = {},
                       std::vector<std::pair<std::string, std::string>> env = {}) {
    args.insert(args.begin(), interop::installed(script).string());
    return NodeServer(MCP_NODE_PATH, interop::installed(fs::path(MCP_E2E_DIR) / "listen_loopback.mjs").string(),
                      std::move(args), std::move(env));
}

// What a test's client saw of the server's own messages.
struct Seen {
    std::mutex mutex;
    std::vector<std::string> logs;
    std::atomic<int> elicitations{0};
    std::atomic<int> samplings{0};

    std::size_t log_count() {
        std::lock_guard lock(mutex);
        return logs.size();
    }
};

// Options that answer forms with `content`, sampling with a fixed text, and keep log messages.
mcp::ClientOptions answering(Seen& seen, boost::json::object content = {}) {
    mcp::ClientOptions options;  // protocol_version "auto"
    options.handlers.elicitation = [&seen, content](const mcp::Elicitation&) {
        ++seen.elicitations;
        return mcp::ElicitResult{mcp::ElicitAction::accept, content};
    };
    options.handlers.sampling = [&seen](const mcp::SamplingRequest&) {
        ++seen.samplings;
        return mcp::SamplingResult{
            mcp::Role::assistant, {mcp::text("sampled by C++")}, "cpp-test-model", "endTurn", {}};
    };
    options.handlers.log = [&seen](const mcp::LogMessage& m) {
        std::lock_guard lock(seen.mutex);
        seen.logs.push_back(m.data.is_string() ? std::string(m.data.get_string()) : "(structured)");
    };
    return options;
}

mcp::Client http_client(const std::string& url, mcp::ClientOptions options = {}) {
    return mcp::Client(std::make_shared<mcp::HttpTransport>(mcp::HttpServerParams{.url = url}), std::move(options));
}

mcp::Client legacy_sse_client(const std::string& url, mcp::ClientOptions options = {}) {
    return mcp::Client(std::make_shared<mcp::LegacySseTransport>(mcp::HttpServerParams{.url = url}),
                       std::move(options));
}

// ---- server-everything.

fs::path everything() { return kModules / "server-everything" / "dist" / "index.js"; }

TEST(InteropHttpEverything, StreamableHttp) {
    auto server = node_server(everything(), {"streamableHttp"});
    Seen seen;
    auto client = http_client(server.url("/mcp"), answering(seen, {{"name", "Ada Lovelace"}, {"check", true}}));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);  // a 2025 server: discover refused, initialize taken
    EXPECT_EQ(client.server_info().name, "mcp-servers/everything");
    std::vector<mcp::Tool> tools;
    ASSERT_TRUE(eventually([&] {  // the tools that need the client's capabilities come once initialized
        tools = client.all_tools();
        return has_tool(tools, "trigger-sampling-request") && has_tool(tools, "trigger-elicitation-request");
    }));
    EXPECT_EQ(text_of(client.call_tool("echo", {{"message", "hi over HTTP"}})), "Echo: hi over HTTP");
    EXPECT_TRUE(contains(text_of(client.call_tool("get-sum", {{"a", 2}, {"b", 3}})), "is 5"));

    std::atomic<int> steps{0};
    const auto done = client.call_tool("trigger-long-running-operation", {{"duration", 0.3}, {"steps", 3}},
                                       {.on_progress = [&](const mcp::Progress&) { ++steps; }});
    EXPECT_TRUE(contains(text_of(done), "Long running operation completed"));
    EXPECT_TRUE(eventually([&] { return steps == 3; }));  // on the POST's event stream

    // Requests from the server to the client, answered on the session.
    EXPECT_TRUE(
        contains(text_of(client.call_tool("trigger-sampling-request", {{"prompt", "hello"}})), "sampled by C++"));
    EXPECT_TRUE(contains(text_of(client.call_tool("trigger-elicitation-request")), "Ada Lovelace"));
    EXPECT_EQ(seen.samplings.load(), 1);
    EXPECT_EQ(seen.elicitations.load(), 1);

    const auto text = client.read_resource("demo://resource/dynamic/text/3");
    EXPECT_TRUE(contains(std::get<mcp::TextResourceContents>(text.contents.front()).text, "Resource 3"));
    EXPECT_FALSE(client.get_prompt("simple-prompt").messages.empty());
    client.close();
}

TEST(InteropHttpEverything, SseModeThroughTheLegacyTransport) {
    auto server = node_server(everything(), {"sse"});
    auto client = legacy_sse_client(server.url("/sse"));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(client.server_info().name, "mcp-servers/everything");
    EXPECT_EQ(text_of(client.call_tool("echo", {{"message", "over SSE"}})), "Echo: over SSE");
    EXPECT_TRUE(contains(text_of(client.call_tool("get-sum", {{"a", 40}, {"b", 2}})), "is 42"));
    EXPECT_FALSE(client.all_resources().empty());
    client.close();
}

TEST(InteropHttpEverything, SseModeThroughStreamableHttpsFallback) {
    auto server = node_server(everything(), {"sse"});
    auto client = http_client(server.url("/sse"));  // its POST refused: the client switches to HTTP+SSE
    client.connect();
    EXPECT_EQ(text_of(client.call_tool("echo", {{"message", "switched"}})), "Echo: switched");
    client.close();
}

// ---- The example servers of @modelcontextprotocol/sdk 1.32.2.

TEST(InteropSdkExamples, SimpleStreamableHttp) {
    auto server = node_server(kSdkExamples / "simpleStreamableHttp.js");
    Seen seen;
    auto client = http_client(server.url("/mcp"), answering(seen, {{"name", "Ada"}, {"email", "ada@example.com"}}));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(text_of(client.call_tool("greet", {{"name", "C++"}})), "Hello, C++!");
    // multi-greet logs on the POST's stream before it answers.
    client.set_log_level(mcp::LogLevel::debug);
    EXPECT_TRUE(contains(text_of(client.call_tool("multi-greet", {{"name", "C++"}})), "Good morning, C++!"));
    EXPECT_TRUE(eventually([&] { return seen.log_count() >= 2; }));
    const auto info = text_of(client.call_tool("collect-user-info", {{"infoType", "contact"}}));
    EXPECT_TRUE(contains(info, "ada@example.com")) << info;
    EXPECT_EQ(seen.elicitations.load(), 1);

    const auto prompt = client.get_prompt("greeting-template", {{"name", "Grace"}});
    ASSERT_EQ(prompt.messages.size(), 1u);
    const auto resources = client.all_resources();
    EXPECT_GE(resources.size(), 3u);
    const auto read = client.read_resource("https://example.com/greetings/default");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(read.contents.front()).text, "Hello, world!");
    client.close();
}

TEST(InteropSdkExamples, JsonResponseStreamableHttp) {
    auto server = node_server(kSdkExamples / "jsonResponseStreamableHttp.js");
    auto client = http_client(server.url("/mcp"));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(text_of(client.call_tool("greet", {{"name", "JSON"}})), "Hello, JSON!");
    EXPECT_TRUE(contains(text_of(client.call_tool("multi-greet", {{"name", "JSON"}})), "JSON"));
    client.close();
}

TEST(InteropSdkExamples, StatelessStreamableHttp) {
    auto server = node_server(kSdkExamples / "simpleStatelessStreamableHttp.js");
    auto client = http_client(server.url("/mcp"));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    const auto prompt = client.get_prompt("greeting-template", {{"name", "Stateless"}});
    ASSERT_EQ(prompt.messages.size(), 1u);
    const auto read = client.read_resource("https://example.com/greetings/default");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(read.contents.front()).text, "Hello, world!");
    // Its log messages name no request, and a stateless server has no GET stream to carry them.
    const auto streamed = client.call_tool("start-notification-stream", {{"interval", 10}, {"count", 2}});
    EXPECT_TRUE(contains(text_of(streamed), "Started sending periodic notifications")) << text_of(streamed);
    client.close();
}

// The 2024-11-05 HTTP+SSE server: GET /mcp is its stream, POST /messages its endpoint.
TEST(InteropSdkExamples, SimpleSseServerThroughBothTransports) {
    auto server = node_server(kSdkExamples / "simpleSseServer.js");
    for (const bool legacy : {true, false}) {
        SCOPED_TRACE(legacy ? "LegacySseTransport" : "HttpTransport switching to HTTP+SSE");
        Seen seen;
        auto client = legacy ? legacy_sse_client(server.url("/mcp"), answering(seen))
                             : http_client(server.url("/mcp"), answering(seen));
        client.connect();
        EXPECT_EQ(client.server_info().name, "simple-sse-server");
        const auto done = client.call_tool("start-notification-stream", {{"interval", 10}, {"count", 2}});
        EXPECT_TRUE(contains(text_of(done), "Completed sending 2 notifications")) << text_of(done);
        EXPECT_TRUE(eventually([&] { return seen.log_count() >= 3; }));  // the first and one per count
        client.close();
    }
}

// Streamable HTTP on /mcp and HTTP+SSE on /sse, from one process.
TEST(InteropSdkExamples, SseAndStreamableHttpCompatibleServer) {
    auto server = node_server(kSdkExamples / "sseAndStreamableHttpCompatibleServer.js");
    for (const std::string path : {"/mcp", "/sse"}) {
        SCOPED_TRACE(path);
        Seen seen;
        auto client = http_client(server.url(path), answering(seen));
        client.connect();
        EXPECT_EQ(client.era(), mcp::Era::sessions);
        // Its log messages name no request: on /mcp they go to the GET stream, which the client
        // opens after initialize, so the first ones may come before it and be lost.
        const auto done = client.call_tool("start-notification-stream", {{"interval", 100}, {"count", 5}});
        EXPECT_FALSE(done.is_error) << text_of(done);
        EXPECT_TRUE(eventually([&] { return seen.log_count() >= 1; }));
        client.close();
    }
}

// ---- A 2026-07-28 server written with @modelcontextprotocol/server 2.4.0.

TEST(InteropSdkV2Server, ModernWireWithAnInputRound) {
    auto server = node_server(fs::path(MCP_E2E_DIR) / "interop_v2_server.mjs");
    Seen seen;
    auto client = http_client(server.url("/mcp"), answering(seen, {{"confirm", true}}));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::stateless);
    EXPECT_EQ(client.protocol_version(), "2026-07-28");
    EXPECT_EQ(client.server_info().name, "interop-v2");
    EXPECT_TRUE(has_tool(client.all_tools(), "delete_file"));
    EXPECT_EQ(text_of(client.call_tool("greet", {{"name", "C++"}})), "Hello, C++!");
    // input_required, the form answered, the call retried with inputResponses.
    EXPECT_EQ(text_of(client.call_tool("delete_file", {{"path", "/tmp/x"}})), "deleted /tmp/x");
    EXPECT_EQ(seen.elicitations.load(), 1);
    const auto read = client.read_resource("notes://today");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(read.contents.front()).text, "buy milk");
    const auto prompt = client.get_prompt("summary", {{"topic", "interop"}});
    ASSERT_EQ(prompt.messages.size(), 1u);
    client.close();
}

// ---- mcp-cpp's own demo.

std::string demo_binary() {
    const char* path = std::getenv("MCP_CPP_DEMO");
    if (path == nullptr) throw std::runtime_error("MCP_CPP_DEMO is not set (ctest sets it)");
    return path;
}

TEST(InteropDemoHttp, OneNodeOnBothWires) {
    testing_support::DemoServer demo(demo_binary());
    for (const std::string version : {"auto", "2025-11-25"}) {
        SCOPED_TRACE(version);
        mcp::ClientOptions options;
        options.protocol_version = version;  // auto takes 2026-07-28, which the demo speaks
        auto client = http_client(demo.url(), options);
        client.connect();
        EXPECT_EQ(client.era(), version == "auto" ? mcp::Era::stateless : mcp::Era::sessions);
        EXPECT_EQ(text_of(client.call_tool("echo", {{"text", "one node"}})), "one node");
        EXPECT_FALSE(client.all_tools().empty());
        client.close();
    }
}

// Two nodes share 2025 sessions through Redis (and one key ring, MCP_SECRET). The client knows one
// URL, the relay's; the relay sends new connections to the node that took the last one while it
// lives. Killing that node closes the client's connections: the next ones reach the other node,
// which finds the session in Redis.
TEST(InteropDemoHttp, TwoNodesOnRedisKeepTheSessionWhenItsNodeDies) {
    testing_support::RedisServer redis;
    ::setenv("MCP_SECRET", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", 1);  // inherited by both nodes
    const std::vector<std::string> args{"--store", redis.url()};
    std::optional<testing_support::DemoServer> first(std::in_place, demo_binary(), args);
    testing_support::DemoServer second(demo_binary(), args);
    testing_support::TcpRelay relay({first->port(), second.port()});
    const auto url = "http://127.0.0.1:" + std::to_string(relay.port()) + "/mcp";

    std::atomic<int> expired{0};
    auto transport = std::make_shared<mcp::HttpTransport>(
        mcp::HttpServerParams{.url = url, .on_session_expired = [&] { ++expired; }});
    mcp::ClientOptions options;
    options.protocol_version = "2025-11-25";  // sessions are 2025's; auto would take 2026-07-28
    mcp::Client client(transport, options);
    client.connect();
    const auto session = transport->session_id();
    ASSERT_FALSE(session.empty());
    EXPECT_EQ(text_of(client.call_tool("echo", {{"text", "before"}})), "before");
    EXPECT_EQ(relay.current(), first->port());

    first.reset();  // SIGKILL
    // A call that goes out on a kept connection at the moment its node dies can fail (the relay
    // closes that connection before any answer; a POST is not sent twice on a guess). The session
    // is what must survive: the application's one retry reaches the other node in it.
    mcp::CallToolResult after;
    try {
        after = client.call_tool("echo", {{"text", "after"}});
    } catch (const mcp::TransportError& e) {
        EXPECT_EQ(e.http_status(), 0) << e.what();  // the connection, never an HTTP refusal
        after = client.call_tool("echo", {{"text", "after"}});
    }
    EXPECT_EQ(text_of(after), "after");
    EXPECT_EQ(relay.current(), second.port());
    EXPECT_EQ(transport->session_id(), session);
    EXPECT_EQ(expired.load(), 0);
    EXPECT_FALSE(client.all_tools().empty());

    // A 2026 client through the same relay needs no session at all.
    auto modern = http_client(url);
    modern.connect();
    EXPECT_EQ(modern.era(), mcp::Era::stateless);
    EXPECT_EQ(text_of(modern.call_tool("echo", {{"text", "stateless"}})), "stateless");
    modern.close();
    client.close();
}

}  // namespace
