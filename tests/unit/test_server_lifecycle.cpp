// initialize, version negotiation, ping, logging, progress, cancellation — through the real core.
#include "server_fixture.hpp"

#include "sessions/session_service.hpp"

#include <boost/json/serialize.hpp>

#include <atomic>
#include <condition_variable>
#include <future>
#include <latch>
#include <thread>

using namespace testing_support;

namespace {

class Lifecycle : public ServerTest {};

}  // namespace

TEST_F(Lifecycle, EndedSessionsDoNotAccumulate) {
    // A client creating and ending sessions in a loop: the table of sessions served stays bounded.
    for (int i = 0; i < 5000; ++i) {
        mcp::LocalConnection c(server);
        c.send(request(1, "initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", boost::json::object()}}));
    }
    EXPECT_LE(mcp::detail::session_service(server).local_entries(), 2048u);
}

TEST_F(Lifecycle, NegotiatesTheProtocolVersion) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    auto r = result("initialize", {{"protocolVersion", "2025-03-26"},
                                   {"capabilities", boost::json::object()},
                                   {"clientInfo", {{"name", "old"}, {"version", "1"}}}});
    EXPECT_EQ(r.at("protocolVersion"), "2025-03-26");
    EXPECT_EQ(r.at("serverInfo").at("name"), "test");
    EXPECT_EQ(
        boost::json::serialize(r.at("capabilities")),
        R"({"tools":{"listChanged":true},"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"logging":{},"completions":{}})");

    conn = std::make_unique<mcp::LocalConnection>(server);
    r = result("initialize", {{"protocolVersion", "1999-01-01"}, {"capabilities", boost::json::object()}});
    EXPECT_EQ(r.at("protocolVersion"), "2025-11-25");
}

TEST_F(Lifecycle, RequestsBeforeInitializeAreRefusedExceptPing) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    EXPECT_EQ(error_code("tools/list"), mcp::error_code::invalid_request);
    EXPECT_EQ(boost::json::serialize(result("ping")), "{}");
    EXPECT_EQ(error_code("initialize", {}), mcp::error_code::invalid_params);  // protocolVersion missing
    connect_and_initialize();
    EXPECT_EQ(error_code("initialize", {{"protocolVersion", "2025-11-25"}}), mcp::error_code::invalid_request);
}

TEST_F(Lifecycle, PingAndSetLevelAnswerExactlyAnEmptyObject) {
    connect_and_initialize();
    EXPECT_EQ(boost::json::serialize(call("ping")), R"({"jsonrpc":"2.0","id":2,"result":{}})");
    EXPECT_EQ(boost::json::serialize(result("logging/setLevel", {{"level", "debug"}})), "{}");
    EXPECT_EQ(error_code("logging/setLevel", {{"level", "loud"}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("no/such/method"), mcp::error_code::method_not_found);
}

TEST_F(Lifecycle, ClientResponsesAndUnknownNotificationsGetNoReply) {
    connect_and_initialize();
    EXPECT_TRUE(conn->send(notification("notifications/whatever")).empty());
    EXPECT_TRUE(conn->send(boost::json::parse(R"({"jsonrpc":"2.0","id":99,"result":{}})")).empty());
    EXPECT_EQ(boost::json::serialize(result("ping")), "{}");
}

TEST_F(Lifecycle, LogMessagesFollowTheSessionLevel) {
    server.tool("chatty", "Logs at every level", [](mcp::ToolContext& ctx) {
        ctx.debug("d");
        ctx.info("i");
        ctx.log(mcp::LogLevel::error, boost::json::object{{"code", 7}}, "db");
        return "done";
    });
    connect_and_initialize();
    auto levels = [&] {
        std::vector<std::string> out;
        auto msgs = conn->send(request(100, "tools/call", {{"name", "chatty"}}));
        for (auto& m : msgs) {
            if (m.as_object().contains("method")) out.emplace_back(m.at("params").at("level").as_string());
        }
        return out;
    };
    EXPECT_EQ(levels(), (std::vector<std::string>{"info", "error"}));  // default: info
    result("logging/setLevel", {{"level", "debug"}});
    EXPECT_EQ(levels(), (std::vector<std::string>{"debug", "info", "error"}));
    result("logging/setLevel", {{"level", "warning"}});
    auto msgs = conn->send(request(101, "tools/call", {{"name", "chatty"}}));
    ASSERT_EQ(msgs.size(), 2u);
    EXPECT_EQ(
        boost::json::serialize(msgs[0]),
        R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":{"code":7}}})");
}

TEST_F(Lifecycle, ProgressEchoesTheTokenWithItsJsonType) {
    server.tool("steps", "Reports progress", [](mcp::ToolContext& ctx) {
        ctx.progress(1, 3);
        ctx.progress(1, 3);  // not increasing: dropped
        ctx.progress(2.5, 3, "almost");
        return "ok";
    });
    connect_and_initialize();
    auto msgs = conn->send(request(1, "tools/call", {{"name", "steps"}, {"_meta", {{"progressToken", 17}}}}));
    ASSERT_EQ(msgs.size(), 3u);
    EXPECT_EQ(
        boost::json::serialize(msgs[0]),
        R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":17,"progress":1,"total":3}})");
    EXPECT_EQ(msgs[1].at("params").at("progress"), 2.5);
    EXPECT_EQ(msgs[1].at("params").at("message"), "almost");
    msgs = conn->send(request(2, "tools/call", {{"name", "steps"}, {"_meta", {{"progressToken", "t-1"}}}}));
    EXPECT_EQ(msgs[0].at("params").at("progressToken"), "t-1");
    msgs = conn->send(request(3, "tools/call", {{"name", "steps"}}));
    EXPECT_EQ(msgs.size(), 1u);  // no token, no progress
}

TEST_F(Lifecycle, CancellationTripsTheStopTokenAndSuppressesTheResponse) {
    std::atomic<bool> saw_stop{false};
    std::promise<void> started;
    server.tool("wait", "Waits for cancellation", [&](mcp::ToolContext& ctx) {
        started.set_value();
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        saw_stop =
            cv.wait_for(lock, ctx.stop_token(), std::chrono::seconds(10), [] { return false; }) || ctx.cancelled();
        return "finished";
    });
    connect_and_initialize();
    std::promise<std::vector<boost::json::value>> done;
    auto messages = std::make_shared<std::vector<boost::json::value>>();
    conn->send_async(
        request("slow-1", "tools/call", {{"name", "wait"}}),
        [messages](const boost::json::value& m) { messages->push_back(m); },
        [&done, messages] { done.set_value(*messages); });
    started.get_future().wait();
    conn->send(notification("notifications/cancelled", {{"requestId", "slow-1"}, {"reason", "user"}}));
    auto got = done.get_future();
    ASSERT_EQ(got.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    EXPECT_TRUE(saw_stop.load());
    EXPECT_TRUE(got.get().empty());
    // A cancellation for an id that is not in flight is harmless.
    conn->send(notification("notifications/cancelled", {{"requestId", 12345}}));
    EXPECT_EQ(boost::json::serialize(result("ping")), "{}");
}

TEST_F(Lifecycle, DuplicateInFlightIdsAreRefused) {
    std::latch release(1);
    std::promise<void> started;
    server.tool("hold", "Holds", [&] {
        started.set_value();
        release.wait();
        return "held";
    });
    connect_and_initialize();
    std::promise<void> done;
    conn->send_async(
        request(5, "tools/call", {{"name", "hold"}}), [](const boost::json::value&) {}, [&] { done.set_value(); });
    started.get_future().wait();
    auto dup = conn->send(request(5, "tools/call", {{"name", "hold"}}));
    ASSERT_EQ(dup.size(), 1u);
    EXPECT_EQ(dup[0].at("error").at("code"), mcp::error_code::invalid_request);
    release.count_down();
    done.get_future().wait();
}

TEST_F(Lifecycle, ErrorMessagesKeepEveryCharacterOfWhatTheyQuote) {
    connect_and_initialize();
    const std::string method("ping\0x", 6);  // what() would stop at the NUL
    auto reply = call(method);
    ASSERT_TRUE(reply.as_object().contains("error")) << boost::json::serialize(reply);
    EXPECT_EQ(reply.at("error").at("message").as_string(), "Method not found: " + method);
}
