#pragma once
// The mcp::Server the in-process client tests talk to: a tool, prompt or resource per thing a
// client must handle.
#include <mcp/mcp.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace client_testing {

struct EchoIn {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoIn, (), (text))

struct SumIn {
    int a;
    int b;
};
BOOST_DESCRIBE_STRUCT(SumIn, (), (a, b))

struct SumOut {
    int sum;
};
BOOST_DESCRIBE_STRUCT(SumOut, (), (sum))

struct SlowIn {
    int steps;
    int step_ms;
};
BOOST_DESCRIBE_STRUCT(SlowIn, (), (steps, step_ms))

struct GreetIn {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(GreetIn, (), (name))

// What the server saw of its clients.
struct Observed {
    std::atomic<int> cancellations{0};
    std::atomic<int> tool_lists{0};
    std::atomic<int> handler_runs{0};
};

// Waits `ms`, or less when the call is cancelled; false when it was.
inline bool wait_unless_cancelled(std::chrono::milliseconds ms, std::stop_token stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    return !cv.wait_for(lock, stop, ms, [] { return false; }) && !stop.stop_requested();
}

inline void add_test_tools(mcp::Server& server, Observed& seen) {
    server.intercept([&seen](const mcp::Invocation& call, const mcp::Proceed& next) {
        if (call.method == "tools/list") ++seen.tool_lists;
        return next();
    });
    server.tool("echo", "Returns its text", [](const EchoIn& in) { return in.text; });
    server.tool("add", "Adds two numbers", [](const SumIn& in) { return SumOut{in.a + in.b}; });
    server.tool({.name = "bad_output",
                 .description = "Answers structured content its output schema refuses",
                 .output_schema =
                     boost::json::object{
                         {"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}, {"required", {"n"}}}},
                [] {
                    return mcp::CallToolResult{{mcp::text("n")}, boost::json::object{{"n", "not a number"}}, false, {}};
                });
    server.tool("fails", "Always fails", []() -> std::string { throw mcp::ToolError("boom"); });
    server.tool("ask_name", "Asks the user for a name and an age", [&seen](mcp::ToolContext& ctx) {
        ++seen.handler_runs;
        mcp::FormSchema form;
        form.text("name").default_value("Ada");
        form.integer("age").default_value(7);
        const auto answer = ctx.elicit("Who are you?", form, "who");
        if (!answer.accepted()) return std::string("declined");
        std::string hello = "Hello ";
        hello.append(answer.content.at("name").as_string())
            .append(" ")
            .append(std::to_string(answer.content.at("age").as_int64()));
        return hello;
    });
    server.tool("draft", "Asks for a title and a body in one round", [](mcp::ToolContext& ctx) {
        mcp::FormSchema form;
        form.text("title");
        mcp::SamplingRequest body;
        body.messages.push_back({mcp::Role::user, mcp::text("Write about cats")});
        body.max_tokens = 50;
        body.key = "body";
        auto answers = ctx.ask({mcp::ElicitRequest{"Title?", std::move(form), "title"}, std::move(body)});
        const auto& title = std::get<mcp::ElicitResult>(answers[0]);
        std::string draft(title.content.at("title").as_string());
        return draft.append(": ").append(std::get<mcp::SamplingResult>(answers[1]).text());
    });
    server.tool("sign_in", "Asks the user to sign in in their browser", [](mcp::ToolContext& ctx) {
        if (!ctx.client_supports("elicitation.url")) throw mcp::ToolError("no URL elicitation");
        return ctx.elicit_url("Sign in", "https://example.com/sign-in", "sign_in").accepted() ? std::string("opened")
                                                                                              : std::string("declined");
    });
    server.tool({.name = "regional",
                 .description = "Takes a region that Streamable HTTP mirrors into a header",
                 .input_schema = boost::json::object{{"type", "object"},
                                                     {"properties",
                                                      {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                                       {"n", {{"type", "integer"}}}}}}},
                [](const boost::json::object& arguments) { return std::string(arguments.at("region").as_string()); });
    server.tool("roots", "Lists the client's roots", [](mcp::ToolContext& ctx) {
        std::string out;
        for (const auto& root : ctx.roots()) out += root.uri + ";";
        return out;
    });
    server.tool("slow", "Counts slowly with progress; stops when cancelled",
                [&seen](const SlowIn& in, mcp::ToolContext& ctx) {
                    for (int i = 1; i <= in.steps; ++i) {
                        if (!wait_unless_cancelled(std::chrono::milliseconds(in.step_ms), ctx.stop_token())) {
                            ++seen.cancellations;
                            return std::string("cancelled");
                        }
                        ctx.progress(i, in.steps);
                    }
                    return std::string("done");
                });
    server.tool("ask_forever", "Asks one more question after every answer", [](mcp::ToolContext& ctx) {
        mcp::FormSchema form;
        form.boolean("more");
        for (int i = 1; i < 1000; ++i) {
            std::string key = "q";
            key += std::to_string(i);
            ctx.elicit("More?", form, key);
        }
        return std::string("gave up");
    });
    server.tool("log", "Logs at info", [](mcp::ToolContext& ctx) {
        ctx.info("hello from the tool");
        return std::string("logged");
    });
    server.tool(
        {.name = "export", .description = "A long job that runs as a task", .task_support = mcp::TaskSupport::optional},
        [](mcp::ToolContext& ctx) {
            wait_unless_cancelled(std::chrono::milliseconds(100), ctx.stop_token());
            return std::string("exported");
        });
    server.prompt("greet", "Greets someone", [](const GreetIn& in) { return "Hello " + in.name; });
    server.complete_prompt_argument("greet", "name", mcp::complete_from({"Ada", "Alan", "Grace"}));
    server.resource("test://static", {.name = "static", .mime_type = "text/plain"},
                    [] { return std::string("static text"); });
    server.resource_template("test://items/{id}", {.name = "item", .mime_type = "text/plain"},
                             [](std::string_view id) { return "item " + std::string(id); });
}

}  // namespace client_testing
