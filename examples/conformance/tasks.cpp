// Fixtures of the tasks extension scenarios (SEP-2663, the suite's tasks-*): a tool that never
// becomes a task, tools that do, and tools that ask their client from inside a task. The same
// handlers serve 2025-11-25 clients that call them with params.task.
#include "fixtures.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace conformance {

namespace {

struct Greeting {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(Greeting, (), (name))

struct Compute {
    double seconds = 0;
    std::optional<std::string> label;
};
BOOST_DESCRIBE_STRUCT(Compute, (), (seconds, label))

struct FileName {
    std::string filename;
};
BOOST_DESCRIBE_STRUCT(FileName, (), (filename))

// Sleeps, waking for tasks/cancel: a cancelled task's handler ends early.
void sleep_for(mcp::ToolContext& ctx, std::chrono::milliseconds total) {
    const auto until = std::chrono::steady_clock::now() + total;
    while (!ctx.cancelled() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

mcp::FormSchema confirm_form() {
    mcp::FormSchema form;
    form.boolean("confirm").description("Go ahead?");
    return form;
}

bool confirmed(const mcp::ElicitResult& r) {
    const auto* confirm = r.content.if_contains("confirm");
    return r.accepted() && confirm != nullptr && confirm->is_bool() && confirm->get_bool();
}

std::string name_of(const mcp::ElicitResult& r, const char* otherwise) {
    const auto* name = r.content.if_contains("name");
    return r.accepted() && name != nullptr && name->is_string() ? std::string(name->get_string()) : otherwise;
}

}  // namespace

void add_task_fixtures(mcp::Server& server) {
    server.tool("greet", "Greets by name, at once (never a task)",
                [](const Greeting& in) { return "Hello, " + in.name + "!"; });

    server.tool({.name = "slow_compute",
                 .description = "Works for `seconds` seconds, then answers; runs as a task when it can",
                 .task_support = mcp::TaskSupport::optional},
                [](const Compute& in, mcp::ToolContext& ctx) {
                    for (int step = 1; step <= 4 && !ctx.cancelled(); ++step) {
                        sleep_for(ctx, std::chrono::milliseconds(static_cast<long>(in.seconds * 250)));
                        ctx.progress(step, 4);
                    }
                    return "Computed " + in.label.value_or("result") + " after " + std::to_string(in.seconds) + "s";
                });

    server.tool({.name = "failing_job",
                 .description = "Fails after about a second, as tools fail (isError); runs only as a task",
                 .task_support = mcp::TaskSupport::required},
                [](mcp::ToolContext& ctx) -> std::string {
                    sleep_for(ctx, std::chrono::seconds(1));
                    throw std::runtime_error("the job failed");
                });

    server.tool({.name = "protocol_error_job",
                 .description = "Fails with a JSON-RPC error (the task fails); runs as a task when it can",
                 .task_support = mcp::TaskSupport::optional},
                []() -> std::string { throw mcp::Error(mcp::error_code::internal_error, "the job broke down"); });

    server.tool({.name = "confirm_delete",
                 .description = "Asks the user to confirm, then deletes (pretends to) the file",
                 .task_support = mcp::TaskSupport::optional},
                [](const FileName& in, mcp::ToolContext& ctx) {
                    auto answer = ctx.elicit("Delete " + in.filename + "?", confirm_form(), "confirm");
                    return confirmed(answer) ? "Deleted " + in.filename : "Kept " + in.filename;
                });

    server.tool({.name = "multi_input",
                 .description = "Asks two questions at once, then answers with both",
                 .task_support = mcp::TaskSupport::optional},
                [](mcp::ToolContext& ctx) {
                    mcp::FormSchema form = confirm_form();
                    form.text("name").description("A name");
                    auto answers = ctx.ask({mcp::ElicitRequest{"First question", form, "first"},
                                            mcp::ElicitRequest{"Second question", form, "second"}});
                    return "Got " + name_of(std::get<mcp::ElicitResult>(answers[0]), "nobody") + " and " +
                           name_of(std::get<mcp::ElicitResult>(answers[1]), "nobody");
                });

    // Asks in the request (an input_required round), then becomes a task with the answer.
    server.tool({.name = "test_tool_with_task",
                 .description = "Asks the user's name, then greets them from a task",
                 .task_support = mcp::TaskSupport::required,
                 .task_started_by_handler = true},
                [](mcp::ToolContext& ctx) {
                    mcp::FormSchema form;
                    form.text("name").description("Your name");
                    auto name = name_of(ctx.elicit("What is your name?", form, "user_name"), "stranger");
                    ctx.start_task();
                    sleep_for(ctx, std::chrono::milliseconds(200));
                    return "Hello from the task, " + name + "!";
                });
}

}  // namespace conformance
