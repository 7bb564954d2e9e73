// mcp::Mount and tasks, for every pair of revisions (outer client x inner client): a mounted tool
// has the inner tool's task support, the outer call becomes a task when the inner one does, its
// lifecycle follows the inner task's (working, completed, failed), cancelling it cancels the inner
// task (running, or waiting for input), the inner task's questions reach the outer client through
// the outer task, and questions asked before the inner task are asked before the outer one
// (docs/adr/0029-gateway.md, decision 12).
#include "client_test_support.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <variant>

using client_testing::eventually;
using client_testing::first_text;

namespace {

constexpr auto kTasksExtension = "io.modelcontextprotocol/tasks";

mcp::FormSchema name_form() {
    mcp::FormSchema form;
    form.text("name").title("Your name");
    return form;
}

std::string name_in(const mcp::ElicitResult& answer) {
    return answer.accepted() ? std::string(answer.content.at("name").as_string()) : "nobody";
}

// Quick polls, so that a test waits for tasks in tens of milliseconds.
mcp::ServerOptions quick_tasks() {
    mcp::ServerOptions options;
    options.validate_tool_output = false;
    options.tasks.poll_interval = std::chrono::milliseconds(20);
    return options;
}

}  // namespace

class MountTasks : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountTasks() {
        inner.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) -> boost::json::value {
            count(inner_methods, std::string(call.method));
            // A task without its id, in each wire's shape.
            if (call.method == "tools/call" && call.target == "forged") {
                if (call.exchange.era() == mcp::Era::stateless) return {{"resultType", "task"}, {"status", "working"}};
                return {{"task", {{"status", "working"}}}};
            }
            return next();
        });
        outer.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
            count(outer_methods, std::string(call.method));
            if (call.method == "tools/call" && call.params.contains("inputResponses")) ++outer_round_retries;
            return next();
        });
        inner.tool("plain", "Never a task", [] { return std::string("plain"); });
        inner.tool({.name = "hold",
                    .description = "Waits for the test, as a task when it can",
                    .task_support = mcp::TaskSupport::optional},
                   [this](mcp::ToolContext& ctx) {
                       inner_in_task = ctx.in_task();
                       held = true;
                       while (!released && !ctx.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
                       if (ctx.cancelled()) inner_stopped = true;
                       return std::string("released");
                   });
        inner.tool({.name = "forged",
                    .description = "Answered by a forged task (the interceptor)",
                    .task_support = mcp::TaskSupport::optional},
                   [] { return std::string("never"); });
        inner.tool(
            {.name = "only_task", .description = "Runs only as a task", .task_support = mcp::TaskSupport::required},
            [this](mcp::ToolContext& ctx) {
                inner_in_task = ctx.in_task();
                return std::string("from a task");
            });
        inner.tool({.name = "breaks",
                    .description = "Fails with a JSON-RPC error, in its task",
                    .task_support = mcp::TaskSupport::required},
                   []() -> std::string { throw mcp::Error(-32042, "the job broke down"); });
        inner.tool({.name = "ask_in_task",
                    .description = "Asks for a name from inside its task",
                    .task_support = mcp::TaskSupport::required},
                   [](mcp::ToolContext& ctx) {
                       return "Hello from the task, " + name_in(ctx.elicit("Who are you?", name_form(), "who"));
                   });
        inner.tool({.name = "ask_two_in_task",
                    .description = "Asks for two names at once, from its task",
                    .task_support = mcp::TaskSupport::required},
                   [](mcp::ToolContext& ctx) {
                       auto answers = ctx.ask({mcp::ElicitRequest{"First?", name_form(), "first"},
                                               mcp::ElicitRequest{"Second?", name_form(), "second"}});
                       return name_in(std::get<mcp::ElicitResult>(answers[0])) + " and " +
                              name_in(std::get<mcp::ElicitResult>(answers[1]));
                   });
        inner.tool({.name = "ask_three_in_task",
                    .description = "Asks for a name, a completion and the roots at once, from its task",
                    .task_support = mcp::TaskSupport::required},
                   [](mcp::ToolContext& ctx) {
                       mcp::SamplingRequest poem;
                       poem.messages.push_back({mcp::Role::user, mcp::text("A poem")});
                       poem.key = "poem";
                       auto answers = ctx.ask({mcp::ElicitRequest{"Name?", name_form(), "name"}, std::move(poem),
                                               mcp::RootsRequest{"roots"}});
                       return name_in(std::get<mcp::ElicitResult>(answers[0])) + " / " +
                              std::get<mcp::SamplingResult>(answers[1]).text() + " / " +
                              std::get<std::vector<mcp::Root>>(answers[2]).at(0).uri;
                   });
        inner.tool({.name = "ask_then_task",
                    .description = "Asks for a name, then becomes a task",
                    .task_support = mcp::TaskSupport::required,
                    .task_started_by_handler = true},
                   [this](mcp::ToolContext& ctx) {
                       asked_outside_task = !ctx.in_task();
                       const auto name = name_in(ctx.elicit("Who are you?", name_form(), "who"));
                       ctx.start_task();
                       inner_in_task = ctx.in_task();
                       return "Hello from the task, " + name;
                   });
    }

    // The outer client takes tasks and answers forms with the name "Ada"; with `hold_answers`, it
    // waits for release() before answering.
    mcp::Client& start(bool hold_answers = false) {
        mcp::ClientOptions inner_options;
        inner_options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", mcp::in_process(inner), inner_options);
        mcp::ClientOptions outer_options;
        outer_options.protocol_version = std::get<0>(GetParam());
        outer_options.tasks = true;
        outer_options.handlers.elicitation = [this, hold_answers](const mcp::Elicitation&) {
            ++outer_elicitations;
            while (hold_answers && !released) std::this_thread::sleep_for(std::chrono::milliseconds(5));
            return mcp::ElicitResult{.action = mcp::ElicitAction::accept, .content = {{"name", "Ada"}}};
        };
        outer_options.handlers.sampling = [](const mcp::SamplingRequest&) {
            mcp::SamplingResult result;
            result.content.emplace_back(mcp::text("hi"));
            return result;
        };
        outer_options.roots = std::vector<mcp::Root>{{"file:///work", "work"}};
        client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(outer_options));
        client->connect();
        client->all_tools();  // a 2025 client asks for a task where the listing allows one
        return *client;
    }

    mcp::Task outer_task(const std::string& tool) {
        auto started = client->call_tool_as_task(tool);
        if (!std::holds_alternative<mcp::Task>(started)) {
            ADD_FAILURE() << tool << " answered at once: " << first_text(std::get<mcp::CallToolResult>(started));
            return {};
        }
        return std::get<mcp::Task>(started);
    }

    // The keys of the outer task's input requests, once it waits for input.
    std::set<std::string> keys_asked(const std::string& task_id) {
        mcp::Task waiting;
        if (!eventually([&] {
                waiting = client->get_task(task_id);
                return waiting.status == mcp::TaskStatus::input_required;
            })) {
            ADD_FAILURE() << "the outer task never waited for input";
        }
        std::set<std::string> keys;
        for (const auto& request : waiting.input_requests) keys.emplace(request.key());
        return keys;
    }

    bool outer_2026() const { return std::get<0>(GetParam()) == "2026-07-28"; }
    bool inner_2026() const { return std::get<1>(GetParam()) == "2026-07-28"; }

    int inner_count(const std::string& method) {
        std::lock_guard lock(mutex);
        return inner_methods[method];
    }
    int outer_count(const std::string& method) {
        std::lock_guard lock(mutex);
        return outer_methods[method];
    }

    void TearDown() override {
        released = true;
        mounted.reset();
        if (client) client->close();
    }

    std::mutex mutex;
    std::map<std::string, int> inner_methods;
    std::map<std::string, int> outer_methods;
    std::atomic<int> outer_round_retries{0};
    std::atomic<int> outer_elicitations{0};
    std::atomic<bool> held{false};
    std::atomic<bool> released{false};
    std::atomic<bool> inner_in_task{false};
    std::atomic<bool> inner_stopped{false};
    std::atomic<bool> asked_outside_task{false};
    mcp::Server inner{{.name = "inner", .version = "1"}, quick_tasks()};
    mcp::Server outer{{.name = "outer", .version = "1"}, quick_tasks()};
    std::shared_ptr<mcp::Mount> mounted;
    std::unique_ptr<mcp::Client> client;

private:
    void count(std::map<std::string, int>& methods, const std::string& method) {
        std::lock_guard lock(mutex);
        ++methods[method];
    }
};

TEST_P(MountTasks, AMountedToolHasTheInnerToolsTaskSupportAndTheOuterServerDeclaresTasks) {
    auto& c = start();
    std::map<std::string, std::string> support;
    for (const auto& tool : c.all_tools()) support[tool.name] = tool.task_support;
    EXPECT_EQ(support.at("in_plain"), "forbidden");
    EXPECT_EQ(support.at("in_hold"), "optional");
    EXPECT_EQ(support.at("in_only_task"), "required");
    const auto& capabilities = c.server_capabilities();
    if (outer_2026()) {
        EXPECT_TRUE(capabilities.at("extensions").as_object().contains(kTasksExtension));
    } else {
        EXPECT_TRUE(capabilities.contains("tasks"));
    }
}

TEST_P(MountTasks, TheOuterTaskWorksWhileTheInnerTaskRunsAndCompletesWithItsResult) {
    auto& c = start();
    const auto task = outer_task("in_hold");
    ASSERT_TRUE(eventually([&] { return held.load(); }));
    EXPECT_TRUE(inner_in_task.load());
    EXPECT_EQ(c.get_task(task.id).status, mcp::TaskStatus::working);
    released = true;
    EXPECT_EQ(first_text(c.task_result(task.id)), "released");
    EXPECT_EQ(c.get_task(task.id).status, mcp::TaskStatus::completed);
    // A tool that runs only as a task, followed to its end by call_tool.
    EXPECT_EQ(first_text(c.call_tool("in_only_task")), "from a task");
    EXPECT_EQ(inner_count("tools/call"), 2);
}

TEST_P(MountTasks, AnInnerTasksErrorFailsTheOuterTaskWithTheSameError) {
    auto& c = start();
    const auto task = outer_task("in_breaks");
    try {
        c.task_result(task.id);
        ADD_FAILURE() << "no error";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), -32042);
        EXPECT_EQ(e.message(), "the job broke down");
    }
    EXPECT_EQ(c.get_task(task.id).status, mcp::TaskStatus::failed);
}

TEST_P(MountTasks, AnInnerTaskWithoutAnIdFailsTheCallNamingTheMount) {
    auto& c = start();
    try {
        c.call_tool("in_forged");
        ADD_FAILURE() << "no error";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::internal_error);
        EXPECT_NE(e.message().find("mounted server \"in\""), std::string::npos) << e.message();
    }
    EXPECT_EQ(inner_count("tasks/get") + inner_count("tasks/result"), 0);
}

TEST_P(MountTasks, CancellingTheOuterTaskCancelsTheInnerTask) {
    auto& c = start();
    const auto task = outer_task("in_hold");
    ASSERT_TRUE(eventually([&] { return held.load(); }));
    c.cancel_task(task.id);
    EXPECT_EQ(c.get_task(task.id).status, mcp::TaskStatus::cancelled);
    // Only tasks/cancel stops an inner task: cancelling its tasks/get or tasks/result does not.
    EXPECT_TRUE(eventually([&] { return inner_count("tasks/cancel") == 1; }));
    EXPECT_TRUE(eventually([&] { return inner_stopped.load(); }));
}

TEST_P(MountTasks, CancellingTheOuterTaskWhileItWaitsForInputCancelsTheInnerTask) {
    auto& c = start(true);
    const auto task = outer_task("in_ask_in_task");
    ASSERT_TRUE(eventually([&] { return c.get_task(task.id).status == mcp::TaskStatus::input_required; }));
    c.cancel_task(task.id);
    EXPECT_EQ(c.get_task(task.id).status, mcp::TaskStatus::cancelled);
    EXPECT_TRUE(eventually([&] { return inner_count("tasks/cancel") == 1; }));
}

TEST_P(MountTasks, TheInnerTasksQuestionReachesTheOuterClientThroughTheOuterTask) {
    auto& c = start();
    const auto task = outer_task("in_ask_in_task");
    EXPECT_EQ(first_text(c.task_result(task.id)), "Hello from the task, Ada");
    EXPECT_EQ(outer_elicitations.load(), 1);
    // One inner call, its task answered once (the run tasks/update resumes passes the inner
    // server's interceptors again, as a 2026 tools/call).
    EXPECT_EQ(inner_count("tools/call"), inner_2026() ? 2 : 1);
    if (inner_2026()) {
        EXPECT_EQ(inner_count("tasks/update"), 1);
    }
    if (outer_2026()) {
        // Answered on the task (tasks/update), not in a round of the call.
        EXPECT_EQ(outer_count("tasks/update"), 1);
        EXPECT_EQ(outer_round_retries.load(), 0);
    }
}

TEST_P(MountTasks, QuestionsTheInnerTaskAsksTogetherReachTheOuterTaskTogether) {
    auto& c = start(true);
    const auto task = outer_task("in_ask_two_in_task");
    if (outer_2026() && inner_2026()) {
        // Both at once on the outer task, as on the inner one (a 2025 server asks one at a time).
        EXPECT_EQ(keys_asked(task.id), (std::set<std::string>{"first", "second"}));
    }
    released = true;
    EXPECT_EQ(first_text(c.task_result(task.id)), "Ada and Ada");
    EXPECT_EQ(outer_elicitations.load(), 2);
    if (outer_2026() && inner_2026()) {
        EXPECT_EQ(outer_count("tasks/update"), 1);
    }
}

TEST_P(MountTasks, AnElicitationASamplingRequestAndARootsRequestOfTheInnerTaskReachTheOuterTaskTogether) {
    auto& c = start(true);
    const auto task = outer_task("in_ask_three_in_task");
    if (outer_2026() && inner_2026()) {
        EXPECT_EQ(keys_asked(task.id), (std::set<std::string>{"name", "poem", "roots"}));
    }
    released = true;
    EXPECT_EQ(first_text(c.task_result(task.id)), "Ada / hi / file:///work");
    if (outer_2026() && inner_2026()) {
        EXPECT_EQ(outer_count("tasks/update"), 1);
    }
}

TEST_P(MountTasks, AQuestionBeforeTheInnerTaskIsAskedBeforeTheOuterTask) {
    auto& c = start();
    const auto task = outer_task("in_ask_then_task");
    EXPECT_EQ(outer_elicitations.load(), 1);  // answered before the task was created
    EXPECT_EQ(first_text(c.task_result(task.id)), "Hello from the task, Ada");
    EXPECT_TRUE(asked_outside_task.load());
    EXPECT_TRUE(inner_in_task.load());
    EXPECT_EQ(inner_count("tools/call"), inner_2026() ? 2 : 1);  // a 2026 inner server's round is a retry
    if (outer_2026()) {
        // A round of the call (input_required), then the task: nothing to answer on the task.
        EXPECT_EQ(outer_round_retries.load(), 1);
        EXPECT_EQ(outer_count("tasks/update"), 0);
    }
}

TEST_P(MountTasks, ACallerThatTakesNoTaskGetsTheInnerTasksResultAtOnce) {
    start();
    mcp::ClientOptions options;
    options.protocol_version = std::get<0>(GetParam());
    mcp::Client plain(mcp::in_process(outer), std::move(options));
    plain.connect();
    // The inner call is a task all the same (the mount's client takes tasks), followed to its end.
    released = true;
    EXPECT_EQ(first_text(plain.call_tool("in_hold")), "released");
    EXPECT_TRUE(inner_in_task.load());
    EXPECT_EQ(outer_count("tasks/get") + outer_count("tasks/result"), 0);
}

// outer<revision>_inner<revision> (test_bridge_mount_requests.cpp).
std::string revisions_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& param_info);

INSTANTIATE_TEST_SUITE_P(Revisions, MountTasks,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);

// An inner listing's execution.taskSupport the outer core does not know runs without tasks.
TEST(MountTaskSupport, AnUnknownTaskSupportIsForbidden) {
    mcp::Server outer{{.name = "outer", .version = "1"}};
    mcp::Mount m(outer, "x", [] { return std::shared_ptr<mcp::Client>(); });
    mcp::MountCatalog catalog;
    for (const char* support : {"sometimes", "", "Required", "optional"}) {
        mcp::Tool tool;
        tool.name = std::string("t_") + (*support != 0 ? support : "empty");
        tool.description = "A tool";
        tool.input_schema = {{"type", "object"}};
        tool.task_support = support;
        catalog.tools.push_back(tool);
    }
    m.sync(catalog);
    mcp::Client c(mcp::in_process(outer));
    c.connect();
    std::map<std::string, std::string> support;
    for (const auto& tool : c.all_tools()) support[tool.name] = tool.task_support;
    EXPECT_EQ(support.at("x_t_sometimes"), "forbidden");
    EXPECT_EQ(support.at("x_t_empty"), "forbidden");
    EXPECT_EQ(support.at("x_t_Required"), "forbidden");
    EXPECT_EQ(support.at("x_t_optional"), "optional");
}
