// mcp::Client against an mcp::Server in the same process (mcp::in_process), pinned to each
// revision and negotiating ("auto"): every typed method, input requests of both wires, progress,
// timeouts, cancellation, errors, tasks and the result cache.
#include "client_test_server.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/client/asio.hpp>
#include <mcp/client/client.hpp>

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>

#include <atomic>
#include <future>
#include <thread>

using namespace std::chrono_literals;
using client_testing::Observed;

namespace {

std::string first_text(const mcp::CallToolResult& result) {
    if (result.content.empty()) return "(no content)";
    const auto* t = std::get_if<mcp::TextContent>(&result.content.front());
    return t != nullptr ? t->text : "(not text)";
}

// Waits until `done` holds, for at most 5 s.
template <class F>
bool eventually(F done) {
    for (int i = 0; i < 500; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return done();
}

class ClientInProcess : public ::testing::TestWithParam<std::string> {
protected:
    ClientInProcess()
        : server({.name = "test-server", .version = "2.0"}, {.instructions = "Use echo.",
                                                             .page_size = 2,
                                                             .cache = {.list_ttl = 60s},
                                                             .validate_tool_output = false}) {
        client_testing::add_test_tools(server, seen);
    }

    mcp::Client& connect(mcp::ClientOptions options = {}) {
        options.protocol_version = GetParam();
        client = std::make_unique<mcp::Client>(mcp::in_process(server), std::move(options));
        client->connect();
        return *client;
    }

    bool modern() const { return GetParam() != "2025-11-25"; }

    Observed seen;
    mcp::Server server;
    std::unique_ptr<mcp::Client> client;
};

mcp::ClientHandlers answering_handlers() {
    mcp::ClientHandlers h;
    h.elicitation = [](const mcp::Elicitation& e) {
        if (e.message == "Title?") return mcp::ElicitResult{mcp::ElicitAction::accept, {{"title", "Cats"}}};
        if (e.message == "More?") return mcp::ElicitResult{mcp::ElicitAction::accept, {{"more", true}}};
        return mcp::ElicitResult{mcp::ElicitAction::accept, {}};  // every value from the schema's defaults
    };
    h.sampling = [](const mcp::SamplingRequest& r) {
        mcp::SamplingResult result;
        result.content = {mcp::text("purr (" + std::to_string(r.max_tokens) + ")")};
        result.model = "test-model";
        return result;
    };
    return h;
}

// Passes everything on to another transport, keeping what the client handed it: what a
// Streamable HTTP transport would mirror into headers.
class RecordingTransport final : public mcp::ClientTransport {
public:
    explicit RecordingTransport(std::shared_ptr<mcp::ClientTransport> inner) : inner_(std::move(inner)) {}
    void open(boost::asio::io_context& io, mcp::TransportEvents events) override {
        inner_->open(io, std::move(events));
    }
    void send(mcp::OutboundMessage message) override {
        {
            std::lock_guard lock(mutex);
            auto copy = message;
            copy.failed = nullptr;
            sent.push_back(std::move(copy));
        }
        inner_->send(std::move(message));
    }
    void close() override { inner_->close(); }

    std::mutex mutex;
    std::vector<mcp::OutboundMessage> sent;

private:
    std::shared_ptr<mcp::ClientTransport> inner_;
};

// A test's name for its revision: v20260728, v20251125, vauto.
std::string revision_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = "v" + info.param;
    std::erase(name, '-');
    return name;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Revisions, ClientInProcess, ::testing::Values("2026-07-28", "2025-11-25", "auto"),
                         revision_name);

TEST_P(ClientInProcess, ConnectsAndKnowsTheServer) {
    auto& c = connect();
    EXPECT_EQ(c.era(), modern() ? mcp::Era::stateless : mcp::Era::sessions);
    EXPECT_EQ(c.protocol_version(), modern() ? "2026-07-28" : "2025-11-25");
    EXPECT_EQ(c.server_info().name, "test-server");
    EXPECT_EQ(c.server_info().version, "2.0");
    EXPECT_TRUE(c.server_capabilities().contains("tools"));
    EXPECT_EQ(c.instructions(), "Use echo.");
    EXPECT_FALSE(c.server_versions().empty());
    c.ping();
}

TEST_P(ClientInProcess, ListsToolsAPageAtATimeAndAllOfThem) {
    auto& c = connect();
    const auto page = c.list_tools();
    EXPECT_EQ(page.items.size(), 2u);
    ASSERT_TRUE(page.next_cursor);
    const auto second = c.list_tools(page.next_cursor);
    EXPECT_NE(second.items.front().name, page.items.front().name);

    std::vector<std::string> names;
    for (const auto& tool : c.tools()) names.push_back(tool.name);
    EXPECT_EQ(names.size(), 13u);
    EXPECT_EQ(c.all_tools().size(), 13u);
    const auto all = c.all_tools();
    const auto add = std::find_if(all.begin(), all.end(), [](const mcp::Tool& t) { return t.name == "add"; });
    ASSERT_NE(add, all.end());
    EXPECT_EQ(add->input_schema.at("type"), "object");
    ASSERT_TRUE(add->output_schema);
    const auto exp = std::find_if(all.begin(), all.end(), [](const mcp::Tool& t) { return t.name == "export"; });
    EXPECT_EQ(exp->task_support, "optional");
}

TEST_P(ClientInProcess, CallsToolsWithJsonOrDescribedArguments) {
    auto& c = connect();
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "hi"}})), "hi");
    EXPECT_EQ(first_text(c.call_tool("echo", client_testing::EchoIn{"typed"})), "typed");
    c.all_tools();  // the listing brings the output schemas
    const auto sum = c.call_tool("add", client_testing::SumIn{2, 3});
    ASSERT_TRUE(sum.structured_content);
    EXPECT_EQ(sum.structured_content->at("sum"), 5);
    const auto failed = c.call_tool("fails");
    EXPECT_TRUE(failed.is_error);
    EXPECT_EQ(first_text(failed), "boom");
}

TEST_P(ClientInProcess, StructuredContentIsCheckedAgainstTheListedOutputSchema) {
    auto& c = connect();
    EXPECT_NO_THROW(c.call_tool("bad_output"));  // not listed yet: nothing to check against
    c.all_tools();
    try {
        c.call_tool("bad_output");
        FAIL() << "no OutputSchemaMismatch";
    } catch (const mcp::OutputSchemaMismatch& e) {
        EXPECT_EQ(e.error().instance_path, "/n");
        EXPECT_EQ(e.error().keyword, "type");
    }
}

TEST_P(ClientInProcess, ServerErrorsArriveAsTypedErrors) {
    auto& c = connect();
    EXPECT_THROW(c.call_tool("no_such_tool"), mcp::InvalidParams);
    try {
        c.request("no/such_method");
        FAIL();
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::method_not_found);
    }
    try {
        c.read_resource("test://nothing");
        FAIL();
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), modern() ? mcp::error_code::invalid_params : mcp::error_code::resource_not_found);
    }
}

TEST_P(ClientInProcess, PromptsResourcesAndCompletions) {
    auto& c = connect();
    const auto prompts = c.all_prompts();
    ASSERT_EQ(prompts.size(), 1u);
    EXPECT_EQ(prompts[0].name, "greet");
    ASSERT_EQ(prompts[0].arguments.size(), 1u);
    EXPECT_TRUE(prompts[0].arguments[0].required);
    const auto got = c.get_prompt("greet", {{"name", "Ada"}});
    ASSERT_EQ(got.messages.size(), 1u);
    EXPECT_EQ(std::get<mcp::TextContent>(got.messages[0].content).text, "Hello Ada");

    const auto resources = c.all_resources();
    ASSERT_EQ(resources.size(), 1u);
    EXPECT_EQ(resources[0].uri, "test://static");
    const auto templates = c.all_resource_templates();
    ASSERT_EQ(templates.size(), 1u);
    EXPECT_EQ(templates[0].uri_template, "test://items/{id}");
    const auto read = c.read_resource("test://items/42");
    ASSERT_EQ(read.contents.size(), 1u);
    EXPECT_EQ(std::get<mcp::TextResourceContents>(read.contents[0]).text, "item 42");

    const auto completion = c.complete(mcp::CompletionRef::prompt("greet"), "name", "A");
    EXPECT_EQ(completion.values, (std::vector<std::string>{"Ada", "Alan"}));
}

TEST_P(ClientInProcess, ElicitationIsAnsweredAndDefaultsFillWhatTheUserLeftOut) {
    auto& c = connect({.handlers = answering_handlers()});
    EXPECT_TRUE(c.call_tool("ask_name").content.size() == 1);
    EXPECT_EQ(first_text(c.call_tool("ask_name")), "Hello Ada 7");
    // 2026: one run that asks, one that answers; 2025: one run that waits for the answer.
    EXPECT_EQ(seen.handler_runs.load(), modern() ? 4 : 2);
}

TEST_P(ClientInProcess, ElicitationAndSamplingInOneRound) {
    auto& c = connect({.handlers = answering_handlers()});
    EXPECT_EQ(first_text(c.call_tool("draft")), "Cats: purr (50)");
}

TEST_P(ClientInProcess, UrlElicitationsReachAClientThatDeclaredThem) {
    std::string asked;
    auto handlers = answering_handlers();
    handlers.url_elicitation = true;
    handlers.elicitation = [&](const mcp::Elicitation& e) {
        asked = e.url;
        EXPECT_EQ(e.mode, mcp::ElicitMode::url);
        EXPECT_FALSE(e.elicitation_id.empty());
        return mcp::ElicitResult{mcp::ElicitAction::accept, {}};
    };
    auto& c = connect({.handlers = handlers});
    EXPECT_EQ(first_text(c.call_tool("sign_in")), "opened");
    EXPECT_EQ(asked, "https://example.com/sign-in");
}

TEST_P(ClientInProcess, FormOnlyClientsAreNotAskedForUrls) {
    auto& c = connect({.handlers = answering_handlers()});
    EXPECT_TRUE(c.call_tool("sign_in").is_error);
}

TEST_P(ClientInProcess, WithoutHandlersTheServerSeesNoCapability) {
    auto& c = connect();
    if (modern()) {
        try {
            c.call_tool("ask_name");
            FAIL();
        } catch (const mcp::Error& e) {
            EXPECT_EQ(e.code(), mcp::error_code::missing_required_client_capability);
        }
    } else {
        EXPECT_TRUE(c.call_tool("ask_name").is_error);
    }
}

TEST_P(ClientInProcess, RootsAreSharedAndTheirChangesTold) {
    auto& c = connect({.roots = std::vector<mcp::Root>{{"file:///a", "A"}}});
    EXPECT_EQ(first_text(c.call_tool("roots")), "file:///a;");
    c.set_roots({{"file:///b", ""}, {"file:///c", ""}});
    EXPECT_TRUE(eventually([&] { return first_text(c.call_tool("roots")) == "file:///b;file:///c;"; }));
}

// Input rounds are a 2026-07-28 mechanism: these run on the revisions that have them.
class ClientInProcessModern : public ClientInProcess {};

INSTANTIATE_TEST_SUITE_P(Revisions, ClientInProcessModern, ::testing::Values("2026-07-28", "auto"), revision_name);

TEST_P(ClientInProcessModern, InputRoundsAreBounded) {
    auto& c = connect({.handlers = answering_handlers(), .max_input_rounds = 3});
    try {
        c.call_tool("ask_forever");
        FAIL();
    } catch (const mcp::InputRoundsExceeded& e) {
        EXPECT_EQ(e.rounds(), 3);
    }
}

TEST_P(ClientInProcess, ProgressReachesTheCallbackAndKeepsTheCallAlive) {
    auto& c = connect();
    std::mutex m;
    std::vector<double> progress;
    mcp::CallOptions options;
    options.timeout = 300ms;  // shorter than the call, longer than the gap between two progress notifications
    options.max_total_timeout = 10s;
    options.on_progress = [&](const mcp::Progress& p) {
        std::lock_guard lock(m);
        progress.push_back(p.progress);
        EXPECT_EQ(p.total, 8);
    };
    EXPECT_EQ(first_text(c.call_tool("slow", {{"steps", 8}, {"step_ms", 100}}, options)), "done");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return progress.size() == 8;
    }));
    std::lock_guard lock(m);
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
}

TEST_P(ClientInProcess, ProgressExtendsTheTimeoutOnlyUpToItsMaximum) {
    auto& c = connect();
    mcp::CallOptions options;
    options.timeout = 300ms;
    options.max_total_timeout = 500ms;
    options.on_progress = [](const mcp::Progress&) {};
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(c.call_tool("slow", {{"steps", 50}, {"step_ms", 100}}, options), mcp::RequestTimeout);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, 450ms);
    EXPECT_LT(took, 2s);
}

TEST_P(ClientInProcess, ATimeoutFailsTheCallAndTheServerIsTold) {
    auto& c = connect();
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(c.call_tool("slow", {{"steps", 100}, {"step_ms", 100}}, {.timeout = 200ms}), mcp::RequestTimeout);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    EXPECT_TRUE(eventually([&] { return seen.cancellations.load() == 1; }));
}

TEST_P(ClientInProcess, CancellingFailsTheCallAtOnceAndTheServerStops) {
    auto& c = connect();
    std::stop_source stop;
    auto call = std::async(std::launch::async, [&] {
        return c.call_tool("slow", {{"steps", 100}, {"step_ms", 100}}, {.stop = stop.get_token()});
    });
    std::this_thread::sleep_for(150ms);
    const auto start = std::chrono::steady_clock::now();
    stop.request_stop();
    EXPECT_THROW(call.get(), mcp::Cancelled);
    // Not a measurement: the call would otherwise last the tool's remaining ~10 s.
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    EXPECT_TRUE(eventually([&] { return seen.cancellations.load() == 1; }));
    // A token stopped before the call never reaches the server.
    std::stop_source before;
    before.request_stop();
    EXPECT_THROW(c.call_tool("echo", {{"text", "x"}}, {.stop = before.get_token()}), mcp::Cancelled);
}

TEST_P(ClientInProcess, LogMessagesReachTheCallback) {
    std::mutex m;
    std::vector<std::string> lines;
    mcp::ClientHandlers h;
    h.log = [&](const mcp::LogMessage& message) {
        std::lock_guard lock(m);
        lines.emplace_back(message.data.as_string());
    };
    auto& c = connect({.handlers = h, .log_level = mcp::LogLevel::debug});
    c.call_tool("log");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return lines == std::vector<std::string>{"hello from the tool"};
    }));
    c.set_log_level(mcp::LogLevel::error);
    c.call_tool("log");
    std::this_thread::sleep_for(100ms);
    std::lock_guard lock(m);
    EXPECT_EQ(lines.size(), 1u);
}

TEST_P(ClientInProcess, ListChangesAndResourceUpdatesReachTheCallbacks) {
    std::mutex m;
    std::vector<mcp::ListKind> changed;
    std::vector<std::string> updated;
    mcp::ClientHandlers h;
    h.list_changed = [&](mcp::ListKind kind) {
        std::lock_guard lock(m);
        changed.push_back(kind);
    };
    h.resource_updated = [&](const std::string& uri) {
        std::lock_guard lock(m);
        updated.push_back(uri);
    };
    auto& c = connect({.handlers = h});
    auto subscription = c.listen({.tools_list_changed = true, .resource_subscriptions = {"test://static"}});
    EXPECT_TRUE(subscription.active());
    EXPECT_TRUE(subscription.acknowledged().tools_list_changed);
    EXPECT_EQ(subscription.acknowledged().resource_subscriptions, std::vector<std::string>{"test://static"});

    server.tool("late", "Registered after the client connected", [] { return std::string("late"); });
    server.notify_resource_updated("test://static");
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return !changed.empty() && changed.front() == mcp::ListKind::tools &&
               updated == std::vector<std::string>{"test://static"};
    }));
    subscription.cancel();
    EXPECT_FALSE(subscription.active());
}

TEST_P(ClientInProcess, ListingsAreCachedForTheirTtlUntilTheListChanges) {
    auto& c = connect();
    c.list_tools();
    c.list_tools();
    // 2026 results carry ttlMs (60 s here): the second listing is the cached one.
    EXPECT_EQ(seen.tool_lists.load(), modern() ? 1 : 2);
    c.list_tools(std::nullopt, {.fresh = true});
    EXPECT_EQ(seen.tool_lists.load(), modern() ? 2 : 3);
    if (!modern()) return;
    auto subscription = c.listen({.tools_list_changed = true});
    server.tool("late", "Registered after the listing", [] { return std::string("late"); });
    EXPECT_TRUE(eventually([&] {
        c.list_tools();
        return seen.tool_lists.load() == 3;
    }));
}

TEST_P(ClientInProcess, ToolCallsAsTasks) {
    auto& c = connect({.tasks = true});
    auto started = c.call_tool_as_task("export", {}, 60'000);
    ASSERT_TRUE(std::holds_alternative<mcp::Task>(started));
    const auto& task = std::get<mcp::Task>(started);
    EXPECT_FALSE(task.id.empty());
    EXPECT_EQ(c.get_task(task.id).id, task.id);
    EXPECT_EQ(first_text(c.task_result(task.id)), "exported");
    EXPECT_EQ(c.get_task(task.id).status, mcp::TaskStatus::completed);
    if (modern()) {
        // The server makes the call a task; call_tool follows it to its end.
        EXPECT_EQ(first_text(c.call_tool("export")), "exported");
    } else {
        const auto listed = c.list_tasks();
        EXPECT_EQ(listed.items.size(), 1u);
        EXPECT_EQ(first_text(c.call_tool("export")), "exported");  // no params.task: an ordinary call
    }
    auto second = c.call_tool_as_task("export");
    ASSERT_TRUE(std::holds_alternative<mcp::Task>(second));
    c.cancel_task(std::get<mcp::Task>(second).id);
    EXPECT_EQ(c.get_task(std::get<mcp::Task>(second).id).status, mcp::TaskStatus::cancelled);
}

TEST_P(ClientInProcess, ACallFollowsItsTaskAndTellsOfIt) {
    auto& c = connect({.tasks = true});
    c.all_tools();  // 2025: the listing says which tools may run as tasks (params.task)
    std::atomic<int> told{0};
    mcp::CallOptions options;
    options.on_task = [&](const mcp::Task& task) {
        EXPECT_FALSE(task.id.empty());
        ++told;
    };
    EXPECT_EQ(first_text(c.call_tool("export", {}, options)), "exported");
    EXPECT_EQ(told.load(), 1);
    std::promise<std::string> done;
    c.async_call_tool("export", {}, options, [&](const std::exception_ptr& error, const mcp::CallToolResult& result) {
        done.set_value(error ? "failed" : first_text(result));
    });
    EXPECT_EQ(done.get_future().get(), "exported");
    EXPECT_EQ(told.load(), 2);
    EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "hi"}}, options)), "hi");  // no task: not told
    EXPECT_EQ(told.load(), 2);
}

TEST_P(ClientInProcess, AStoppedCallCancelsTheTaskItFollows) {
    auto& c = connect({.tasks = true});
    c.all_tools();
    std::stop_source stop;
    std::string task_id;
    mcp::CallOptions options;
    options.stop = stop.get_token();
    options.on_task = [&](const mcp::Task& task) {
        task_id = task.id;
        stop.request_stop();
    };
    EXPECT_THROW(c.call_tool("export", {}, options), mcp::Cancelled);
    ASSERT_FALSE(task_id.empty());
    EXPECT_EQ(c.get_task(task_id).status, mcp::TaskStatus::cancelled);
}

TEST_P(ClientInProcess, TaskStatusChangesReachTheCallback) {
    std::mutex m;
    std::vector<mcp::Task> statuses;
    mcp::ClientHandlers handlers;
    handlers.task_status = [&](const mcp::Task& task) {
        std::lock_guard lock(m);
        statuses.push_back(task);
    };
    auto& c = connect({.handlers = handlers, .tasks = true});
    const auto task = std::get<mcp::Task>(c.call_tool_as_task("export"));
    // 2026: status notifications come on a listen stream that names the task.
    mcp::Subscription subscription;
    if (modern()) subscription = c.listen({.task_ids = {task.id}});
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return std::any_of(statuses.begin(), statuses.end(), [&](const mcp::Task& t) {
            return t.id == task.id && t.status == mcp::TaskStatus::completed;
        });
    }));
}

TEST_P(ClientInProcess, EachOutboundMessageSaysWhatHttpMirrorsIntoHeaders) {
    auto recording = std::make_shared<RecordingTransport>(mcp::in_process(server));
    mcp::Client c(recording, {.protocol_version = GetParam()});
    c.connect();
    c.all_tools();  // the listing tells which arguments are mirrored
    EXPECT_EQ(first_text(c.call_tool("regional", {{"region", "eu-west"}, {"n", 3}})), "eu-west");
    c.read_resource("test://static");
    std::lock_guard lock(recording->mutex);
    const auto& sent = recording->sent;
    const auto find = [&](std::string_view method) {
        return std::find_if(sent.rbegin(), sent.rend(),
                            [&](const mcp::OutboundMessage& m) { return m.method == method; });
    };
    const auto call = find("tools/call");
    ASSERT_NE(call, sent.rend());
    EXPECT_EQ(call->kind, mcp::OutboundMessage::Kind::request);
    EXPECT_TRUE(call->id.is_int64());
    EXPECT_EQ(call->name, "regional");
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(call->params, (Pairs{{"Region", "eu-west"}}));
    EXPECT_EQ(call->protocol_version, c.protocol_version());
    const auto read = find("resources/read");
    ASSERT_NE(read, sent.rend());
    EXPECT_EQ(read->name, "test://static");
    const auto list = find("tools/list");
    EXPECT_FALSE(list->name);
    EXPECT_TRUE(list->params.empty());
    if (!modern()) {
        const auto initialized = find("notifications/initialized");
        ASSERT_NE(initialized, sent.rend());
        EXPECT_EQ(initialized->kind, mcp::OutboundMessage::Kind::notification);
        EXPECT_EQ(initialized->protocol_version, "2025-11-25");
        EXPECT_TRUE(find("initialize")->protocol_version.empty());  // no header before the version is agreed
    }
}

TEST_P(ClientInProcess, AsyncRequestsAndAsioAwaitables) {
    auto& c = connect();
    std::promise<boost::json::value> answered;
    c.async_request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "async"}}}}, {},
                    [&](std::exception_ptr error, boost::json::value result) {
                        if (error)
                            answered.set_exception(error);
                        else
                            answered.set_value(std::move(result));
                    });
    EXPECT_EQ(answered.get_future().get().at("content").at(0).at("text"), "async");

    boost::asio::io_context host;
    auto awaited = boost::asio::co_spawn(
        host,
        [&]() -> boost::asio::awaitable<std::string> {
            // Arguments built before co_await: GCC 12 miscompiles braced lists inside it.
            boost::json::object arguments{{"text", "awaited"}};
            auto result = co_await mcp::async_call_tool(c, "echo", arguments, {}, boost::asio::use_awaitable);
            boost::json::object params{{"name", "echo"}, {"arguments", {{"text", "raw"}}}};
            auto raw = co_await mcp::async_request(c, "tools/call", params, {}, boost::asio::use_awaitable);
            std::string both = first_text(result);
            both.append("+").append(raw.at("content").at(0).at("text").as_string());
            co_return both;
        },
        boost::asio::use_future);
    host.run();
    EXPECT_EQ(awaited.get(), "awaited+raw");
}

TEST_P(ClientInProcess, BlockingOnTheClientsOwnIoThreadIsRefused) {
    boost::asio::io_context host;
    auto guard = boost::asio::make_work_guard(host);
    std::thread io([&] { host.run(); });
    {
        mcp::Client c(mcp::in_process(server), {.protocol_version = GetParam(), .io_context = &host});
        c.connect();
        std::promise<bool> refused;
        boost::asio::post(host, [&] {
            try {
                c.ping();
                refused.set_value(false);
            } catch (const std::logic_error&) {
                refused.set_value(true);
            }
        });
        EXPECT_TRUE(refused.get_future().get());
        EXPECT_EQ(first_text(c.call_tool("echo", {{"text", "host io"}})), "host io");
    }
    guard.reset();
    io.join();
}

TEST_P(ClientInProcess, CloseFailsCallsInFlightAtOnce) {
    auto& c = connect();
    auto call = std::async(std::launch::async, [&] { return c.call_tool("slow", {{"steps", 100}, {"step_ms", 100}}); });
    std::this_thread::sleep_for(100ms);
    c.close();
    EXPECT_THROW(call.get(), mcp::ConnectionClosed);
    EXPECT_THROW(c.call_tool("echo", {{"text", "x"}}), mcp::ConnectionClosed);
}
