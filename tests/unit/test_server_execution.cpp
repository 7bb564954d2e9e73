// The execution model through the real core: blocked handlers, the bound, context propagation.
#include "server_fixture.hpp"

#include <boost/json/serialize.hpp>

#include <atomic>
#include <future>
#include <latch>
#include <thread>

using namespace testing_support;

namespace {

mcp::ServerOptions small_pool(std::size_t core, std::size_t max, std::size_t queue, std::chrono::milliseconds grow) {
    mcp::ServerOptions o;
    o.execution.core_threads = core;
    o.execution.max_threads = max;
    o.execution.queue_capacity = queue;
    o.execution.grow_after = grow;
    return o;
}

class Elastic : public ServerTest {
protected:
    Elastic() : ServerTest(small_pool(2, 2048, 10000, std::chrono::milliseconds(5))) {}
};

class Bounded : public ServerTest {
protected:
    Bounded() : ServerTest(small_pool(1, 1, 1, std::chrono::milliseconds(5))) {}
};

}  // namespace

TEST_F(Elastic, FiftyBlockedHandlersDoNotStopTheFiftyFirstCall) {
    std::latch all_blocked(50);
    std::latch release(1);
    server.tool("block", "Blocks until released", [&] {
        all_blocked.count_down();
        release.wait();
        return "released";
    });
    server.tool("echo", "Echo", [](const boost::json::object& a) { return std::string(a.at("text").as_string()); });
    connect_and_initialize();

    std::atomic<int> finished{0};
    for (int i = 0; i < 50; ++i) {
        conn->send_async(
            request(1000 + i, "tools/call", {{"name", "block"}}), [](const boost::json::value&) {},
            [&] { ++finished; });
    }
    all_blocked.wait();  // fifty handlers are blocked at once
    auto reply = call("tools/call", {{"name", "echo"}, {"arguments", {{"text", "still here"}}}});
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "still here");
    EXPECT_EQ(finished.load(), 0);  // the fifty were still blocked while the 51st was served
    release.count_down();
    for (int i = 0; i < 500 && finished.load() < 50; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(finished.load(), 50);
}

TEST_F(Elastic, HandlersDeclaredRunsInlineRunOnTheCallersThreadOthersOnThePool) {
    std::thread::id tool_thread, pooled_thread, prompt_thread, resource_thread;
    server.tool({.name = "quick", .description = "Inline", .runs_inline = true}, [&] {
        tool_thread = std::this_thread::get_id();
        return "quick";
    });
    server.tool("pooled", "On the pool", [&] {
        pooled_thread = std::this_thread::get_id();
        return "pooled";
    });
    server.prompt({.name = "p", .description = "Inline prompt", .runs_inline = true}, [&] {
        prompt_thread = std::this_thread::get_id();
        return "text";
    });
    server.resource("test://r", {.name = "r", .runs_inline = true}, [&] {
        resource_thread = std::this_thread::get_id();
        return "contents";
    });
    connect_and_initialize();
    EXPECT_EQ(first_text(call_tool("quick", {})), "quick");
    EXPECT_EQ(first_text(call_tool("pooled", {})), "pooled");
    result("prompts/get", {{"name", "p"}});
    result("resources/read", {{"uri", "test://r"}});
    const auto here = std::this_thread::get_id();
    EXPECT_EQ(tool_thread, here);
    EXPECT_EQ(prompt_thread, here);
    EXPECT_EQ(resource_thread, here);
    EXPECT_NE(pooled_thread, here);
    EXPECT_NE(pooled_thread, std::thread::id());
}

TEST_F(Bounded, AnInlineHandlerIsServedWhileThePoolIsFull) {
    std::latch release(1);
    std::latch started(1);
    server.tool("block", "Blocks", [&] {
        started.count_down();
        release.wait();
        return "x";
    });
    server.tool({.name = "quick", .description = "Inline", .runs_inline = true}, [] { return "quick"; });
    connect_and_initialize();
    std::atomic<int> done{0};
    conn->send_async(
        request(101, "tools/call", {{"name", "block"}}), [](const boost::json::value&) {}, [&] { ++done; });
    started.wait();
    conn->send_async(
        request(102, "tools/call", {{"name", "block"}}), [](const boost::json::value&) {}, [&] { ++done; });
    EXPECT_EQ(first_text(call_tool("quick", {})), "quick");  // the one thread is busy, the queue full
    release.count_down();
    for (int i = 0; i < 500 && done.load() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(done.load(), 2);
}

TEST_F(Bounded, BeyondTheBoundCallsAreRefusedWithAClearError) {
    std::latch release(1);
    std::promise<void> started;
    server.tool("block", "Blocks", [&] {
        started.set_value();
        release.wait();
        return "x";
    });
    connect_and_initialize();
    conn->send_async(request(1, "tools/call", {{"name", "block"}}), [](const boost::json::value&) {});
    started.get_future().wait();
    // The one thread is busy; one call may wait in the queue, the next is refused.
    std::promise<boost::json::value> queued_reply;
    conn->send_async(request(2, "tools/call", {{"name", "nope"}}),
                     [&](const boost::json::value& m) { queued_reply.set_value(m); });
    auto refused = conn->send(request(3, "tools/call", {{"name", "nope"}}));
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0].at("error").at("code"), mcp::error_code::internal_error);
    EXPECT_NE(std::string(refused[0].at("error").at("message").as_string()).find("overloaded"), std::string::npos);
    release.count_down();
    auto queued = queued_reply.get_future().get();
    EXPECT_EQ(queued.at("error").at("code"), mcp::error_code::invalid_params);  // it ran: unknown tool
}

namespace {
thread_local std::string tenant;
std::atomic<int> tenant_clears{0};
}  // namespace

TEST_F(Elastic, ThreadLocalContextTravelsToTheHandlerAndIsClearedAfter) {
    server.context_registry().add({"test.tenant", [] { return std::any(tenant); },
                                   [](const std::any& v) { tenant = std::any_cast<const std::string&>(v); },
                                   [] {
                                       tenant.clear();
                                       ++tenant_clears;
                                   }});
    std::promise<std::pair<std::string, std::thread::id>> seen;
    server.tool("whoami", "Reports the tenant", [&] {
        seen.set_value({tenant, std::this_thread::get_id()});
        return tenant;
    });
    connect_and_initialize();
    tenant = "acme";  // set on the transport side, i.e. the thread calling handle()
    const int clears_before = tenant_clears.load();
    auto reply = call("tools/call", {{"name", "whoami"}});
    tenant.clear();
    auto [value, thread] = seen.get_future().get();
    EXPECT_EQ(value, "acme");
    EXPECT_NE(thread, std::this_thread::get_id());  // it ran on a handler thread
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "acme");
    // Cleared on the handler thread after the handler; the response may arrive just before that.
    for (int i = 0; i < 200 && tenant_clears.load() == clears_before; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(tenant_clears.load(), clears_before + 1);
}

namespace {

// The calling thread's log fields, as "name=value;…".
std::string log_fields_text() {
    std::string text;
    for (const auto& [name, value] : mcp::current_log_fields()) text += name + "=" + value + ";";
    return text;
}

}  // namespace

// The log fields of a call served inline are built only when read: they must still be the call's,
// read in the handler, in a snapshot taken there, and on the pool; and gone once the call is.
TEST_F(Elastic, LogFieldsAreTheCallsInlineInASnapshotAndOnThePool) {
    std::string inline_fields, snapshot_fields, pooled_fields;
    server.tool({.name = "quick", .description = "Inline", .runs_inline = true}, [&] {
        const auto snapshot = server.context_registry().capture();  // before the fields were read
        inline_fields = log_fields_text();
        std::thread([&] {
            const auto scope = snapshot.restore();
            snapshot_fields = log_fields_text();
        }).join();
        return "quick";
    });
    server.tool("pooled", "On the pool", [&] {
        pooled_fields = log_fields_text();
        return "pooled";
    });
    connect_and_initialize();
    EXPECT_EQ(first_text(call_tool("quick", {})), "quick");
    EXPECT_EQ(first_text(call_tool("pooled", {})), "pooled");
    EXPECT_NE(inline_fields.find("mcp.method=tools/call;"), std::string::npos) << inline_fields;
    EXPECT_NE(inline_fields.find("mcp.request.id="), std::string::npos) << inline_fields;
    EXPECT_EQ(snapshot_fields, inline_fields);
    EXPECT_NE(pooled_fields.find("mcp.method=tools/call;"), std::string::npos) << pooled_fields;
    EXPECT_NE(pooled_fields, inline_fields);  // another request id
    EXPECT_EQ(log_fields_text(), "");         // this thread served the inline call: nothing is left
}
