// Tasks (docs/adr/0021-tasks.md) through the real core: the memory task store, the 2026 tasks
// extension and the 2025 experimental tasks, with one handler API.
#include "server_fixture.hpp"
#include "store/task_store.hpp"

#include <boost/json/serialize.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stop_token>
#include <thread>

using namespace testing_support;
using namespace std::chrono_literals;
using mcp::detail::TaskRecord;
using mcp::detail::TaskStatus;

namespace {

template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds within = 5s) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (!pred()) {
        if (std::chrono::steady_clock::now() >= until) return pred();
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

TaskRecord record(std::string id, std::string owner, std::int64_t created, std::int64_t ttl = 60'000) {
    TaskRecord r;
    r.id = std::move(id);
    r.charged_to = "p:" + owner;  // a principal's tasks count against it
    r.owner = std::move(owner);
    r.node = "n1";
    r.created_ms = r.updated_ms = created;
    r.ttl_ms = ttl;
    return r;
}

}  // namespace

// ---- The memory store.

TEST(MemoryTaskStore, EndsOnceAndKeepsWhatEndedIt) {
    auto store = mcp::detail::make_memory_task_store();
    const auto now = mcp::detail::epoch_ms();
    ASSERT_TRUE(store->create(record("a", "alice", now), 10));
    EXPECT_EQ(store->get("a")->status, TaskStatus::working);
    EXPECT_TRUE(store->finish("a", {.status = TaskStatus::completed, .result = R"({"content":[]})"}));
    EXPECT_FALSE(store->finish("a", {.status = TaskStatus::failed, .error = R"({"code":1})"}));  // ended already
    EXPECT_EQ(store->cancel("a")->status, TaskStatus::completed);  // a cancel after the end changes nothing
    EXPECT_EQ(store->get("a")->result, R"({"content":[]})");
    EXPECT_FALSE(store->get("nope"));
    EXPECT_FALSE(store->cancel("nope"));
}

TEST(MemoryTaskStore, AnonymousClientsAreCountedByAddressWhateverTheirOwner) {
    auto store = mcp::detail::make_memory_task_store();
    const auto now = mcp::detail::epoch_ms();
    auto anonymous = [&](const std::string& id, const std::string& address, std::int64_t ttl = 60'000) {
        auto r = record(id, "", now, ttl);
        r.charged_to = "a:" + address;
        return r;
    };
    ASSERT_TRUE(store->create(anonymous("x0", "192.0.2.7", 50), 2));
    ASSERT_TRUE(store->create(anonymous("x1", "192.0.2.7"), 2));
    EXPECT_FALSE(store->create(anonymous("x2", "192.0.2.7"), 2));
    EXPECT_TRUE(store->create(anonymous("y0", "192.0.2.8"), 2));
    EXPECT_EQ(store->list("", 0, "", 10).size(), 3u);  // one owner, every anonymous task
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(store->create(anonymous("x3", "192.0.2.7"), 2));  // x0 expired: its count went with it
}

TEST(MemoryTaskStore, AnswersArriveInPartsAndOnlyForAwaitedRequests) {
    auto store = mcp::detail::make_memory_task_store();
    ASSERT_TRUE(store->create(record("t", "", mcp::detail::epoch_ms()), 10));
    EXPECT_FALSE(store->answer("t", R"({"x":1})"));  // not waiting
    ASSERT_TRUE(store->await_input("t", R"({"a":{"method":"elicitation/create"},"b":{"method":"roots/list"}})"));
    EXPECT_FALSE(store->answer("t", R"({"a":{"action":"accept","content":{"list":[]}},"zzz":true})"));
    auto t = store->get("t");
    EXPECT_EQ(t->status, TaskStatus::input_required);
    EXPECT_EQ(t->input_requests, R"({"b":{"method":"roots/list"}})");
    EXPECT_FALSE(store->answer("t", R"({"a":{"again":true}})"));  // answered already: ignored
    EXPECT_TRUE(store->answer("t", R"({"b":{"roots":[]}})"));     // the last one
    const auto answers = boost::json::parse(*store->resume("t"));
    EXPECT_EQ(answers.at("a").at("content").at("list"), boost::json::array());  // [] stays an array
    EXPECT_EQ(answers.at("b").at("roots"), boost::json::array());
    EXPECT_EQ(store->get("t")->status, TaskStatus::working);
    EXPECT_EQ(*store->resume("t"), "");  // taken
    ASSERT_TRUE(store->cancel("t"));
    EXPECT_FALSE(store->resume("t"));  // ended
}

TEST(MemoryTaskStore, BoundsTasksPerOwnerListsThemInPagesAndForgetsExpiredOnes) {
    auto store = mcp::detail::make_memory_task_store();
    const auto now = mcp::detail::epoch_ms();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(store->create(record("a" + std::to_string(i), "alice", now + i, 100), 3));
    EXPECT_FALSE(store->create(record("a3", "alice", now + 3), 3));  // at the bound
    EXPECT_TRUE(store->create(record("b0", "bob", now), 3));         // another owner's count
    auto page = store->list("alice", -1, "", 2);
    ASSERT_EQ(page.size(), 2u);
    EXPECT_EQ(page[0].id, "a0");
    page = store->list("alice", page[1].created_ms, page[1].id, 2);
    ASSERT_EQ(page.size(), 1u);
    EXPECT_EQ(page[0].id, "a2");
    EXPECT_TRUE(store->list("carol", -1, "", 10).empty());
    ASSERT_TRUE(eventually([&] { return !store->get("a0"); }, 2s));  // past its 100 ms
    EXPECT_TRUE(store->create(record("a4", "alice", mcp::detail::epoch_ms()), 3));
    EXPECT_TRUE(store->get("b0"));
}

// ---- Through the core.

namespace {

boost::json::object envelope(bool tasks) {
    boost::json::object caps{{"elicitation", boost::json::object()}};
    if (tasks) caps["extensions"] = {{"io.modelcontextprotocol/tasks", boost::json::object()}};
    return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientInfo", {{"name", "gtest"}, {"version", "1"}}},
            {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

class Tasks : public ServerTest {
protected:
    void SetUp() override {
        server.tool("plain", "Never a task", [] { return "plain"; });
        server.tool({.name = "wait",
                     .description = "Waits until released or cancelled",
                     .task_support = mcp::TaskSupport::optional},
                    [this](mcp::ToolContext& ctx) {
                        ++started;
                        while (!released && !ctx.cancelled()) std::this_thread::sleep_for(2ms);
                        if (ctx.cancelled()) ++cancelled;
                        ctx.progress(1, 2, "half");
                        return ctx.in_task() ? "done in a task" : "done";
                    });
        server.tool({.name = "must", .description = "Only as a task", .task_support = mcp::TaskSupport::required},
                    [] { return "ok"; });
        server.tool({.name = "broken", .description = "A protocol error", .task_support = mcp::TaskSupport::optional},
                    []() -> std::string { throw mcp::Error(-32603, "broke"); });
        server.tool({.name = "oops", .description = "A tool error", .task_support = mcp::TaskSupport::optional},
                    []() -> std::string { throw std::runtime_error("no luck"); });
        server.tool({.name = "ask", .description = "Asks twice", .task_support = mcp::TaskSupport::optional},
                    [](mcp::ToolContext& ctx) {
                        mcp::FormSchema form;
                        form.text("name");
                        auto answers = ctx.ask({mcp::ElicitRequest{"First?", form, "first"},
                                                mcp::ElicitRequest{"Second?", form, "second"}});
                        auto name = [](const mcp::InputAnswer& a) {
                            return std::string(std::get<mcp::ElicitResult>(a).content.at("name").as_string());
                        };
                        return name(answers[0]) + "+" + name(answers[1]);
                    });
    }

    // Handlers refer to this fixture: none may outlive it.
    void TearDown() override {
        released = true;
        EXPECT_TRUE(server.wait_idle(5s));
    }

    // A 2026 request, with or without the tasks extension declared.
    boost::json::value modern(std::string_view method, boost::json::object params, bool tasks = true) {
        params["_meta"] = envelope(tasks);
        std::promise<boost::json::value> done;
        struct Sink : mcp::CallSink {
            std::promise<boost::json::value>* done;
            bool send(boost::json::value) override { return true; }
            void complete(std::optional<boost::json::value> r) override { done->set_value(r ? *r : nullptr); }
        };
        auto sink = std::make_shared<Sink>();
        sink->done = &done;
        server.handle(request(++id_, method, std::move(params)), mcp::Inbound{}, sink);
        return done.get_future().get();
    }
    boost::json::value modern_result(std::string_view method, boost::json::object params, bool tasks = true) {
        auto reply = modern(method, std::move(params), tasks);
        EXPECT_TRUE(reply.as_object().contains("result")) << boost::json::serialize(reply);
        return reply.as_object().contains("result") ? reply.at("result") : boost::json::value();
    }
    static int code_of(const boost::json::value& reply) {
        const auto* e = reply.as_object().if_contains("error");
        return e ? static_cast<int>(e->at("code").as_int64()) : 0;
    }
    // Polls tasks/get until the status is `status`.
    boost::json::value poll(const boost::json::value& id, std::string_view status) {
        boost::json::value task;
        EXPECT_TRUE(eventually([&] {
            task = modern_result("tasks/get", {{"taskId", id}});
            return task.at("status").as_string() == status;
        })) << boost::json::serialize(task);
        return task;
    }

    std::stop_source cancel_listens;  // closes the listen streams a test opened
    std::atomic<bool> released{false};
    std::atomic<int> started{0};
    std::atomic<int> cancelled{0};

private:
    std::int64_t id_ = 1000;
};

}  // namespace

TEST_F(Tasks, ModernClientGetsATaskPollsItAndReadsTheResultInline) {
    auto created = modern_result("tools/call", {{"name", "wait"}});
    EXPECT_EQ(created.at("resultType"), "task");
    EXPECT_EQ(created.at("status"), "working");
    EXPECT_TRUE(created.at("ttlMs").is_int64());
    EXPECT_FALSE(created.as_object().contains("task"));
    const auto id = created.at("taskId");
    EXPECT_EQ(modern_result("tasks/get", {{"taskId", id}}).at("status"), "working");  // stored before the answer
    released = true;
    auto done = poll(id, "completed");
    EXPECT_EQ(done.at("result").at("content").at(0).at("text"), "done in a task");
    EXPECT_EQ(done.at("resultType"), "complete");
    EXPECT_FALSE(done.as_object().contains("pollIntervalMs"));
}

TEST_F(Tasks, WithoutTheExtensionTheCallRunsPlainlyAndTasksMethodsAreRefused) {
    released = true;
    auto plain = modern_result("tools/call", {{"name", "wait"}}, false);
    EXPECT_EQ(plain.at("content").at(0).at("text"), "done");
    auto refused = modern("tools/call", {{"name", "must"}}, false);
    EXPECT_EQ(code_of(refused), -32021);
    EXPECT_TRUE(refused.at("error")
                    .at("data")
                    .at("requiredCapabilities")
                    .at("extensions")
                    .as_object()
                    .contains("io.modelcontextprotocol/tasks"));
    for (auto m : {"tasks/get", "tasks/cancel"}) EXPECT_EQ(code_of(modern(m, {{"taskId", "x"}}, false)), -32021) << m;
    EXPECT_EQ(code_of(modern("tasks/update", {{"taskId", "x"}, {"inputResponses", boost::json::object()}}, false)),
              -32021);
    EXPECT_EQ(code_of(modern("tasks/result", {{"taskId", "x"}})), -32601);  // not in the 2026 extension
    EXPECT_EQ(code_of(modern("tasks/list", {})), -32601);
    // A legacy params.task does not make a plain tool a task.
    EXPECT_EQ(modern_result("tools/call", {{"name", "plain"}, {"task", {{"ttl", 1000}}}}).at("resultType"), "complete");
}

TEST_F(Tasks, AListenStreamFollowsTheTasksItNames) {
    struct Stream : mcp::CallSink {
        std::mutex mutex;
        std::vector<boost::json::value> got;
        std::optional<boost::json::value> end;
        bool send(boost::json::value m) override {
            std::lock_guard lock(mutex);
            got.push_back(std::move(m));
            return true;
        }
        void complete(std::optional<boost::json::value> r) override {
            std::lock_guard lock(mutex);
            end = r ? std::move(*r) : boost::json::value(nullptr);
        }
        std::vector<boost::json::value> tasks_notifications() {
            std::lock_guard lock(mutex);
            std::vector<boost::json::value> out;
            for (const auto& m : got) {
                if (m.at("method") == "notifications/tasks") out.push_back(m);
            }
            return out;
        }
    };
    const auto id = modern_result("tools/call", {{"name", "wait"}}).at("taskId");
    auto listen = [&](bool tasks, boost::json::array ids) {
        auto stream = std::make_shared<Stream>();
        boost::json::object params{{"notifications", {{"taskIds", std::move(ids)}}}, {"_meta", envelope(tasks)}};
        mcp::Inbound inbound;
        inbound.cancel = cancel_listens.get_token();
        server.handle(request(9000 + static_cast<int>(tasks), "subscriptions/listen", std::move(params)), inbound,
                      stream);
        return stream;
    };
    auto refused = listen(false, {id});
    ASSERT_TRUE(refused->end.has_value());
    EXPECT_EQ(refused->end->at("error").at("code"), -32021);

    auto stream = listen(true, {id, "someone-elses"});
    ASSERT_FALSE(stream->got.empty());
    EXPECT_EQ(stream->got.front().at("params").at("notifications").at("taskIds").as_array().size(), 2u);
    released = true;
    ASSERT_TRUE(eventually([&] {
        auto n = stream->tasks_notifications();
        return !n.empty() && n.back().at("params").at("status") == "completed";
    }));
    auto last = stream->tasks_notifications().back().at("params");
    EXPECT_EQ(last.at("taskId"), id);
    EXPECT_EQ(last.at("result").at("content").at(0).at("text"), "done in a task");
    EXPECT_EQ(last.at("_meta").at("io.modelcontextprotocol/subscriptionId"), 9001);
    cancel_listens.request_stop();
}

TEST_F(Tasks, HostileTaskParamsAreInvalidParams) {
    EXPECT_EQ(code_of(modern("tasks/get", {{"taskId", 42}})), -32602);
    EXPECT_EQ(code_of(modern("tasks/get", {})), -32602);
    EXPECT_EQ(code_of(modern("tasks/get", {{"taskId", std::string(10'000, 'x')}})), -32602);
    EXPECT_EQ(code_of(modern("tasks/get", {{"taskId", "never-was"}})), -32602);
    EXPECT_EQ(code_of(modern("tasks/cancel", {{"taskId", "never-was"}})), -32602);
    EXPECT_EQ(code_of(modern("tasks/update", {{"taskId", "never-was"}, {"inputResponses", "no"}})), -32602);
}

TEST_F(Tasks, AProtocolErrorFailsTheTaskAndAToolErrorCompletesIt) {
    auto id = modern_result("tools/call", {{"name", "broken"}}).at("taskId");
    auto failed = poll(id, "failed");
    EXPECT_EQ(failed.at("error").at("code"), -32603);
    EXPECT_FALSE(failed.as_object().contains("result"));
}

TEST_F(Tasks, AToolErrorCompletesAModernTaskAndFailsASessionOne) {
    auto modern_id = modern_result("tools/call", {{"name", "oops"}}).at("taskId");
    EXPECT_EQ(poll(modern_id, "completed").at("result").at("isError"), true);

    connect_and_initialize();
    const auto id = result("tools/call", {{"name", "oops"}, {"task", boost::json::object()}}).at("task").at("taskId");
    auto r = result("tasks/result", {{"taskId", id}});  // the result, not an error
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_EQ(r.at("content").at(0).at("text"), "no luck");
    auto task = result("tasks/get", {{"taskId", id}});
    EXPECT_EQ(task.at("status"), "failed");
    EXPECT_EQ(task.at("statusMessage"), "Tool execution failed: no luck");
    const auto protocol =
        result("tools/call", {{"name", "broken"}, {"task", boost::json::object()}}).at("task").at("taskId");
    EXPECT_EQ(error_code("tasks/result", {{"taskId", protocol}}), -32603);
    EXPECT_EQ(result("tasks/get", {{"taskId", protocol}}).at("statusMessage"), "broke");
}

TEST_F(Tasks, CancelStopsTheHandlerAndTheTaskStaysCancelled) {
    auto id = modern_result("tools/call", {{"name", "wait"}}).at("taskId");
    ASSERT_TRUE(eventually([&] { return started == 1; }));
    auto ack = modern_result("tasks/cancel", {{"taskId", id}});
    EXPECT_EQ(ack.at("resultType"), "complete");
    EXPECT_FALSE(ack.as_object().contains("status"));
    EXPECT_TRUE(eventually([&] { return cancelled == 1; }));
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(modern_result("tasks/get", {{"taskId", id}}).at("status"), "cancelled");
    EXPECT_EQ(modern_result("tasks/cancel", {{"taskId", id}}).at("resultType"), "complete");  // idempotent
}

TEST_F(Tasks, QuestionsWaitInTheTaskUntilEveryOneIsAnswered) {
    auto id = modern_result("tools/call", {{"name", "ask"}}).at("taskId");
    auto waiting = poll(id, "input_required");
    const auto& requests = waiting.at("inputRequests").as_object();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests.at("first").at("method"), "elicitation/create");
    auto answer = [](std::string_view name) {
        return boost::json::object{{"action", "accept"}, {"content", {{"name", name}}}};
    };
    EXPECT_EQ(modern_result("tasks/update", {{"taskId", id}, {"inputResponses", {{"first", answer("Ada")}}}})
                  .at("resultType"),
              "complete");
    auto partial = modern_result("tasks/get", {{"taskId", id}});
    EXPECT_EQ(partial.at("status"), "input_required");
    EXPECT_FALSE(partial.at("inputRequests").as_object().contains("first"));
    EXPECT_TRUE(partial.at("inputRequests").as_object().contains("second"));
    modern_result("tasks/update", {{"taskId", id}, {"inputResponses", {{"second", answer("Bob")}}}});
    EXPECT_EQ(poll(id, "completed").at("result").at("content").at(0).at("text"), "Ada+Bob");
}

TEST_F(Tasks, SessionClientAsksWithParamsTaskAndWaitsWithTasksResult) {
    connect_and_initialize();
    auto listed = result("tools/list");
    for (const auto& t : listed.at("tools").as_array()) {
        if (t.at("name") == "must") {
            EXPECT_EQ(t.at("execution").at("taskSupport"), "required");
        }
        if (t.at("name") == "plain") {
            EXPECT_FALSE(t.as_object().contains("execution"));
        }
    }
    EXPECT_EQ(error_code("tools/call", {{"name", "must"}}), -32601);  // required, not asked as a task
    EXPECT_EQ(error_code("tools/call", {{"name", "plain"}, {"task", boost::json::object()}}), -32601);

    auto created = result("tools/call", {{"name", "wait"}, {"task", {{"ttl", 60000}}}});
    const auto id = created.at("task").at("taskId");
    EXPECT_EQ(created.at("task").at("status"), "working");
    EXPECT_TRUE(created.at("task").as_object().contains("ttl"));
    EXPECT_EQ(result("tasks/get", {{"taskId", id}}).at("status"), "working");

    // tasks/result waits for the end, on a request of its own.
    std::promise<boost::json::value> answered;
    struct Sink : mcp::CallSink {
        std::promise<boost::json::value>* done;
        bool send(boost::json::value) override { return true; }
        void complete(std::optional<boost::json::value> r) override { done->set_value(r ? *r : nullptr); }
    };
    auto sink = std::make_shared<Sink>();
    sink->done = &answered;
    server.handle(request(77, "tasks/result", {{"taskId", id}}), mcp::Inbound{conn->session()}, sink);
    auto pending = answered.get_future();
    EXPECT_EQ(pending.wait_for(100ms), std::future_status::timeout);
    released = true;
    ASSERT_EQ(pending.wait_for(5s), std::future_status::ready);
    const auto r = pending.get().at("result");
    EXPECT_EQ(r.at("content").at(0).at("text"), "done in a task");
    EXPECT_EQ(r.at("_meta").at("io.modelcontextprotocol/related-task").at("taskId"), id);

    auto list = result("tasks/list");
    ASSERT_EQ(list.at("tasks").as_array().size(), 1u);
    EXPECT_EQ(list.at("tasks").at(0).at("status"), "completed");
    EXPECT_EQ(error_code("tasks/cancel", {{"taskId", id}}), -32602);  // finished: 2025 refuses
}

TEST_F(Tasks, SessionClientDoesNotHaveTheExtensionsMethods) {
    connect_and_initialize();
    EXPECT_EQ(error_code("tasks/update", {{"taskId", "x"}, {"inputResponses", boost::json::object()}}), -32601);
    EXPECT_EQ(error_code("server/discover"), -32601);
}

TEST_F(Tasks, SessionClientCancelsARunningTask) {
    connect_and_initialize();
    const auto id = result("tools/call", {{"name", "wait"}, {"task", boost::json::object()}}).at("task").at("taskId");
    ASSERT_TRUE(eventually([&] { return started == 1; }));
    auto task = result("tasks/cancel", {{"taskId", id}});
    EXPECT_EQ(task.at("status"), "cancelled");
    EXPECT_TRUE(eventually([&] { return cancelled == 1; }));
    EXPECT_EQ(error_code("tasks/result", {{"taskId", id}}), -32603);
}

TEST_F(Tasks, APrincipalSeesOnlyItsOwnTasks) {
    auto alice = std::make_shared<mcp::Principal>();
    alice->subject = "alice";
    connect_and_initialize("2025-11-25", alice);
    const auto id = result("tools/call", {{"name", "wait"}, {"task", boost::json::object()}}).at("task").at("taskId");
    auto bob = std::make_shared<mcp::Principal>();
    bob->subject = "bob";
    connect_and_initialize("2025-11-25", bob);
    EXPECT_EQ(error_code("tasks/get", {{"taskId", id}}), -32602);
    EXPECT_EQ(error_code("tasks/cancel", {{"taskId", id}}), -32602);
    EXPECT_TRUE(result("tasks/list").at("tasks").as_array().empty());
    released = true;
}

TEST(TaskLimits, OneTaskTooManyIsRefused) {
    mcp::ServerOptions options;
    options.tasks.max_per_client = 2;
    mcp::Server server({.name = "t", .version = "1"}, options);
    server.tool({.name = "quick", .description = "Quick", .task_support = mcp::TaskSupport::optional},
                [] { return "ok"; });
    mcp::LocalConnection conn(server);
    conn.send(request(1, "initialize",
                      {{"protocolVersion", "2025-11-25"},
                       {"capabilities", boost::json::object()},
                       {"clientInfo", {{"name", "g"}, {"version", "1"}}}}));
    auto call = [&](int id) {
        return conn.send(request(id, "tools/call", {{"name", "quick"}, {"task", boost::json::object()}})).back();
    };
    EXPECT_TRUE(call(2).as_object().contains("result"));
    EXPECT_TRUE(call(3).as_object().contains("result"));
    auto refused = call(4);
    ASSERT_TRUE(refused.as_object().contains("error")) << boost::json::serialize(refused);
    EXPECT_EQ(refused.at("error").at("code"), -32029);  // over the client's quota
}
