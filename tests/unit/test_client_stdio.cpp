// mcp::Client over stdio: the real demo server (MCP_CPP_DEMO), hostile servers (the Node script
// fake_mcp_server.mjs, when the build found node) and shell commands for the shutdown of process
// groups.
#include "client_test_support.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/stdio.hpp>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <pthread.h>
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>

using namespace std::chrono_literals;
using client_testing::env;
using client_testing::eventually;
using client_testing::first_text;

namespace {

// Processes of the group that still run (a zombie nobody reaps has ended).
int live_members(pid_t group) {
    int live = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // pid (comm) state ppid pgrp ...
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 2));
        char state = 0;
        long ppid = 0;
        long pgrp = 0;
        rest >> state >> ppid >> pgrp;
        if (pgrp == group && state != 'Z') ++live;
    }
    return live;
}

class ClientStdio : public ::testing::Test {
protected:
    void SetUp() override {
        demo = env("MCP_CPP_DEMO");
        ASSERT_FALSE(demo.empty()) << "MCP_CPP_DEMO is not set (ctest sets it)";
    }
    mcp::StdioServerParams demo_params() const { return {.command = demo, .args = {"--stdio"}}; }

    std::string demo;
};

// A fake server of test_client_stdio's hostile kinds (fake_mcp_server.mjs).
class ClientStdioHostile : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_FALSE(node.empty()) << "the build found no node to run the fake servers"; }
    std::shared_ptr<mcp::StdioTransport> fake(const std::string& scenario, std::size_t max_message_bytes = 4 << 20) {
        return std::make_shared<mcp::StdioTransport>(mcp::StdioServerParams{
            .command = node, .args = {script, scenario}, .max_message_bytes = max_message_bytes});
    }

    const std::string node = MCP_NODE_PATH;
    const std::string script = MCP_FAKE_SERVER;
};

}  // namespace

TEST_F(ClientStdio, SpawnsTheDemoNegotiatesTheNewestRevisionAndCalls) {
    mcp::Client client(std::make_shared<mcp::StdioTransport>(demo_params()));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::stateless);
    EXPECT_EQ(client.server_info().name, "mcp-cpp-demo");
    EXPECT_EQ(first_text(client.call_tool("echo", {{"text", "over stdio"}})), "over stdio");
    const auto tools = client.all_tools();
    EXPECT_TRUE(std::any_of(tools.begin(), tools.end(), [](const mcp::Tool& t) { return t.name == "word_stats"; }));
    const auto stats = client.call_tool("word_stats", {{"text", "a b a"}});
    ASSERT_TRUE(stats.structured_content);  // checked against the listed outputSchema
    EXPECT_EQ(stats.structured_content->at("words"), 3);
}

// Where an async call's completion runs: the callback pool by default, the client's I/O thread with
// inline_completion (the threads are named by the library).
TEST_F(ClientStdio, AnInlineCompletionRunsOnTheIoThreadAndAPooledOneDoesNot) {
    mcp::Client client(std::make_shared<mcp::StdioTransport>(demo_params()));
    client.connect();
    const auto thread_of_completion = [&](bool inline_completion) {
        std::promise<std::string> name;
        client.async_call_tool("echo", {{"text", "x"}}, {.inline_completion = inline_completion},
                               [&](std::exception_ptr error, const mcp::CallToolResult&) {
                                   char buffer[16] = {};
                                   pthread_getname_np(pthread_self(), buffer, sizeof buffer);
                                   name.set_value(error ? std::string("error") : std::string(buffer));
                               });
        auto future = name.get_future();
        EXPECT_EQ(future.wait_for(10s), std::future_status::ready);
        return future.get();
    };
    EXPECT_EQ(thread_of_completion(true), "mcp-client-io");
    const auto pooled = thread_of_completion(false);
    EXPECT_NE(pooled, "mcp-client-io");
    EXPECT_NE(pooled, "error");
}

TEST_F(ClientStdio, SpeaksAPinnedLegacyRevision) {
    mcp::Client client(std::make_shared<mcp::StdioTransport>(demo_params()), {.protocol_version = "2025-06-18"});
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(client.protocol_version(), "2025-06-18");
    EXPECT_EQ(first_text(client.call_tool("echo", {{"text", "legacy"}})), "legacy");
    client.ping();
}

TEST_F(ClientStdio, StderrLinesReachTheCallback) {
    std::mutex m;
    std::vector<std::string> lines;
    mcp::ClientHandlers handlers;
    handlers.server_stderr = [&](std::string_view line) {
        std::lock_guard lock(m);
        lines.emplace_back(line);
    };
    mcp::Client client(std::make_shared<mcp::StdioTransport>(demo_params()), {.handlers = handlers});
    client.connect();
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return std::any_of(lines.begin(), lines.end(),
                           [](const std::string& l) { return l.find("serving MCP on stdio") != std::string::npos; });
    }));
}

TEST_F(ClientStdio, AServerKilledMidCallFailsEveryPendingCallAtOnce) {
    auto transport = std::make_shared<mcp::StdioTransport>(demo_params());
    mcp::Client client(transport);
    client.connect();
    std::vector<std::future<mcp::CallToolResult>> calls;
    for (int i = 0; i < 4; ++i) {
        calls.push_back(std::async(std::launch::async, [&] {
            return client.call_tool("slow_count", {{"to", 100}, {"step_ms", 100}});
        }));
    }
    std::this_thread::sleep_for(300ms);
    const auto killed_at = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(transport->pid(), SIGKILL), 0);
    for (auto& call : calls) EXPECT_THROW(call.get(), mcp::ConnectionClosed);
    EXPECT_LT(std::chrono::steady_clock::now() - killed_at, 500ms);
    EXPECT_THROW(client.call_tool("echo", {{"text", "x"}}), mcp::ConnectionClosed);
}

// Each thread sends its calls without waiting, then waits for all of them: about a thousand in flight at once.
TEST_F(ClientStdio, AThousandCallsInFlightFromSixtyFourThreadsOverOneClient) {
    mcp::Client client(std::make_shared<mcp::StdioTransport>(demo_params()));
    client.connect();
    constexpr int kThreads = 64;
    constexpr int kCallsEach = 16;
    std::atomic<int> right{0};
    std::atomic<int> in_flight{0};
    std::atomic<int> most_in_flight{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            while (!go.load()) std::this_thread::yield();
            std::vector<std::future<bool>> calls;
            for (int i = 0; i < kCallsEach; ++i) {
                std::string text = "call ";
                text += std::to_string(t * kCallsEach + i);
                auto done = std::make_shared<std::promise<bool>>();
                calls.push_back(done->get_future());
                const int now = ++in_flight;
                for (int most = most_in_flight.load();
                     now > most && !most_in_flight.compare_exchange_weak(most, now);) {}
                client.async_call_tool("echo", {{"text", text}}, {},
                                       [&, text, done](std::exception_ptr error, mcp::CallToolResult result) {
                                           --in_flight;
                                           done->set_value(!error && first_text(result) == text);
                                       });
            }
            for (auto& call : calls) {
                if (call.get()) ++right;
            }
        });
    }
    const auto start = std::chrono::steady_clock::now();
    go = true;
    for (auto& thread : threads) thread.join();
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    EXPECT_EQ(right.load(), kThreads * kCallsEach);
    RecordProperty("milliseconds", static_cast<int>(took.count()));
    RecordProperty("most_in_flight", most_in_flight.load());
    std::cout << kThreads * kCallsEach << " calls from " << kThreads << " threads in " << took.count() << " ms, "
              << most_in_flight.load() << " in flight at most\n";
}

TEST_F(ClientStdio, BlockingCallsFromSixtyFourThreadsAtOnce) {
    mcp::Client client(std::make_shared<mcp::StdioTransport>(demo_params()));
    client.connect();
    std::atomic<int> right{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 64; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 16; ++i) {
                std::string text = "blocking ";
                text += std::to_string(t * 16 + i);
                if (first_text(client.call_tool("echo", {{"text", text}})) == text) ++right;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(right.load(), 64 * 16);
}

TEST_F(ClientStdio, ACommandThatCannotStartFailsToConnect) {
    mcp::Client client(
        std::make_shared<mcp::StdioTransport>(mcp::StdioServerParams{.command = "/nonexistent/mcp-server"}));
    EXPECT_THROW(client.connect(), std::system_error);
}

// ---- Shutdown (basic/transports/stdio.mdx): stdin closed, SIGTERM, SIGKILL, to the whole group.

namespace {

// Opens a transport on an I/O context of the test's, closes it, and says how long the close took.
// `io` outlives `transport`: the transport's strand and timers belong to it until it is destroyed.
std::chrono::milliseconds open_and_close(boost::asio::io_context& io, mcp::StdioTransport& transport, pid_t& group) {
    auto work = boost::asio::make_work_guard(io);
    std::thread runner([&] { io.run(); });
    // Counted rather than a promise: a second `closed`, or one after the wait gave up, must show as
    // a failure, not abort the test binary.
    std::atomic<int> closed_calls{0};
    transport.open(
        io,
        {.message = [](std::string_view) {}, .diagnostic = {}, .closed = [&](const std::string&) { ++closed_calls; }});
    group = transport.pid();
    std::this_thread::sleep_for(200ms);  // the command starts what it starts in the background
    EXPECT_GE(live_members(group), 2);
    const auto start = std::chrono::steady_clock::now();
    transport.close();
    const bool closed = eventually([&] { return closed_calls.load() > 0; }, 10s);
    EXPECT_TRUE(closed) << "no closed event in 10 s; the group has " << live_members(group) << " live members";
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    work.reset();
    if (!closed) io.stop();  // what the transport still waits for would keep the context running
    runner.join();           // the context ran dry: no event comes after this
    EXPECT_EQ(closed_calls.load(), closed ? 1 : 0);
    return took;
}

}  // namespace

TEST(ClientStdioShutdown, ClosingStdinEndsTheServerAndWhatItLeftInItsGroupGoes) {
    boost::asio::io_context io;
    mcp::StdioTransport transport({.command = "sh", .args = {"-c", "sleep 1000 & cat"}, .shutdown_grace = 300ms});
    pid_t group = 0;
    const auto took = open_and_close(io, transport, group);
    EXPECT_LT(took, 300ms + 1s);  // cat exits at once; the sleep goes with one SIGTERM
    EXPECT_TRUE(eventually([&] { return live_members(group) == 0; }, 2s));
}

TEST(ClientStdioShutdown, AServerIgnoringStdinAndSigtermIsKilledWithItsGroup) {
    boost::asio::io_context io;
    mcp::StdioTransport transport(
        {.command = "sh", .args = {"-c", "trap '' TERM; sleep 1000 & exec sleep 1000"}, .shutdown_grace = 300ms});
    pid_t group = 0;
    const auto took = open_and_close(io, transport, group);
    EXPECT_GE(took, 600ms);  // a grace period after stdin closed, another after SIGTERM
    EXPECT_LT(took, 600ms + 1s);
    EXPECT_TRUE(eventually([&] { return live_members(group) == 0; }, 2s));
}

TEST(ClientStdioTransport, StderrLinesAreBoundedAndRateLimited) {
    boost::asio::io_context io;  // before the transport, which holds a strand of it until destroyed
    mcp::StdioTransport transport({.command = "sh",
                                   .args = {"-c",
                                            "i=0; while [ $i -lt 300 ]; do echo line $i >&2; i=$((i+1)); done; "
                                            "head -c 100 /dev/zero | tr '\\0' x >&2; echo >&2; exec cat"},
                                   .max_stderr_line_bytes = 50,
                                   .max_stderr_lines_per_second = 100});
    auto work = boost::asio::make_work_guard(io);
    std::thread runner([&] { io.run(); });
    std::mutex m;
    std::vector<std::string> lines;
    std::promise<void> closed;
    transport.open(io, {.message = [](std::string_view) {},
                        .diagnostic =
                            [&](std::string_view line) {
                                std::lock_guard lock(m);
                                lines.emplace_back(line);
                            },
                        .closed = [&](const std::string&) { closed.set_value(); }});
    std::this_thread::sleep_for(300ms);
    transport.close();
    closed.get_future().wait();
    work.reset();
    runner.join();
    ASSERT_EQ(lines.size(), 101u);  // 100 in the first second, then the count of the others
    EXPECT_EQ(lines.front(), "line 0");
    EXPECT_EQ(lines[99], "line 99");
    EXPECT_EQ(lines.back(), "[201 stderr lines dropped]");  // 200 short ones and the long one
}

TEST(ClientStdioTransport, TheChildGetsItsEnvironmentAndDirectoryAndNoOtherDescriptor) {
    const int inherited = ::dup2(STDERR_FILENO, 77);  // not close-on-exec: only the spawn's own closing keeps it out
    ASSERT_EQ(inherited, 77);
    const auto run = [](mcp::StdioServerParams params) {
        boost::asio::io_context io;
        auto work = boost::asio::make_work_guard(io);
        std::thread runner([&] { io.run(); });
        std::mutex m;
        std::vector<std::string> lines;
        std::promise<void> closed;
        params.command = "sh";
        params.args = {"-c", "echo \"foo=$FOO home=${HOME:-unset} dir=$(pwd)\" >&2; ls /proc/$$/fd >&2; exec cat"};
        mcp::StdioTransport transport(std::move(params));
        transport.open(io, {.message = [](std::string_view) {},
                            .diagnostic =
                                [&](std::string_view line) {
                                    std::lock_guard lock(m);
                                    lines.emplace_back(line);
                                },
                            .closed = [&](const std::string&) { closed.set_value(); }});
        std::this_thread::sleep_for(200ms);
        transport.close();
        closed.get_future().wait();
        work.reset();
        runner.join();
        return lines;
    };
    const auto merged = run({.env = {{"FOO", "bar"}}, .cwd = "/tmp"});
    ASSERT_FALSE(merged.empty());
    EXPECT_EQ(merged.front(), std::string("foo=bar home=").append(env("HOME")).append(" dir=/tmp"));
    EXPECT_EQ(std::count(merged.begin(), merged.end(), "77"), 0);
    EXPECT_EQ(std::count(merged.begin(), merged.end(), "2"), 1);
    const auto replaced = run({.env = {{"FOO", "only"}}, .inherit_env = false});
    ASSERT_FALSE(replaced.empty());
    EXPECT_EQ(replaced.front().substr(0, 23), "foo=only home=unset dir");
    ::close(inherited);
}

namespace {

// /proc/<pid>/limits: "Max open files" -> {soft, hard}.
std::map<std::string, std::pair<std::string, std::string>> limits_of(pid_t pid) {
    std::map<std::string, std::pair<std::string, std::string>> out;
    std::ifstream file("/proc/" + std::to_string(pid) + "/limits");
    std::string line;
    std::getline(file, line);  // the heading
    while (std::getline(file, line)) {
        const auto name_end = line.find("  ");
        std::istringstream values(line.substr(name_end));
        std::string soft;
        std::string hard;
        values >> soft >> hard;
        out[line.substr(0, name_end)] = {soft, hard};
    }
    return out;
}

}  // namespace

TEST(ClientStdioTransport, ResourceLimitsHoldInTheChildAndNoneAboveTheClientsHardLimit) {
    rlimit files{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &files), 0);
    ASSERT_NE(files.rlim_max, RLIM_INFINITY);
    boost::asio::io_context io;  // before the transport, which holds a strand of it until destroyed
    mcp::StdioTransport transport({.command = "sh",
                                   .args = {"-c", "exec cat"},
                                   .limits = {.memory_mib = 64,
                                              .cpu_seconds = 30,
                                              .open_files = static_cast<std::uint64_t>(files.rlim_max) + 1000,
                                              .processes = 100}});
    auto work = boost::asio::make_work_guard(io);
    std::thread runner([&] { io.run(); });
    std::promise<void> closed;
    transport.open(io, {.message = [](std::string_view) {},
                        .diagnostic = {},
                        .closed = [&](const std::string&) { closed.set_value(); }});
    const auto limits = limits_of(transport.pid());
    const auto both = [](const std::string& value) { return std::pair{value, value}; };
    EXPECT_EQ(limits.at("Max data size"), both(std::to_string(64 * 1024 * 1024)));
    EXPECT_EQ(limits.at("Max cpu time"), both("30"));
    EXPECT_EQ(limits.at("Max open files"), both(std::to_string(files.rlim_max)));  // lowered to the client's
    EXPECT_EQ(limits.at("Max processes"), both("100"));
    EXPECT_NE(limits_of(::getpid()).at("Max data size"), both(std::to_string(64 * 1024 * 1024)));  // the child's only
    transport.close();
    closed.get_future().wait();
    work.reset();
    runner.join();
}

TEST(ClientStdioTransport, ACommandThatCannotRunThrowsItsReason) {
    boost::asio::io_context io;
    const auto error_of = [&](mcp::StdioServerParams params) {
        mcp::StdioTransport transport(std::move(params));
        try {
            transport.open(io, {});
        } catch (const std::system_error& e) {
            return e.code().value();
        }
        return 0;
    };
    EXPECT_EQ(error_of({.command = "mcp-cpp-no-such-program"}), ENOENT);  // looked up in PATH
    EXPECT_EQ(error_of({.command = ""}), ENOENT);
    EXPECT_EQ(error_of({.command = "/tmp"}), EACCES);
    EXPECT_EQ(error_of({.command = "sh", .cwd = "/nonexistent/directory"}), ENOENT);
}

// ---- Servers that misbehave.

TEST_F(ClientStdioHostile, ALegacyServerRefusingTheProbeGetsInitialize) {
    mcp::Client client(fake("legacy"));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(client.protocol_version(), "2025-06-18");
    EXPECT_EQ(client.server_info().name, "fake-legacy");
    EXPECT_EQ(first_text(client.call_tool("anything")), "ok");
}

TEST_F(ClientStdioHostile, AServerSilentToTheProbeIsTakenForALegacyOneAfterItsTimeout) {
    mcp::Client client(fake("silent"), {.probe_timeout = 300ms});
    const auto start = std::chrono::steady_clock::now();
    client.connect();
    EXPECT_GE(std::chrono::steady_clock::now() - start, 300ms);
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(client.protocol_version(), "2025-11-25");
}

TEST_F(ClientStdioHostile, AServerWithNoVersionInCommonIsIncompatible) {
    mcp::Client client(fake("incompatible"));
    try {
        client.connect();
        FAIL() << "connected";
    } catch (const mcp::IncompatibleServer& e) {
        EXPECT_EQ(e.server_versions(), std::vector<std::string>{"1999-01-01"});
    }
}

TEST_F(ClientStdioHostile, MalformedLinesAndUnknownOrRepeatedIdsAreDroppedAndCounted) {
    mcp::Client client(fake("hostile", 2048), {.max_message_bytes = 2048});
    client.connect();
    EXPECT_EQ(first_text(client.call_tool("anything")), "ok");
    EXPECT_EQ(first_text(client.call_tool("anything")), "ok");  // the connection is still good
    EXPECT_TRUE(eventually([&] { return client.stats().unknown_responses == 4; }));
    const auto stats = client.stats();
    EXPECT_EQ(stats.malformed_messages, 2u);  // "{not json", twice
    EXPECT_EQ(stats.unknown_responses, 4u);   // id 999999 and the repeated response, twice
}

// An async call's reply in the two orders servers write, read from its text when it has the usual
// shape and through a document when not; a plain-looking reply that is not a well-formed result
// fails its call at once (its id is known) with mcp::ProtocolViolation.
TEST_F(ClientStdioHostile, AsyncToolRepliesAreReadFromTheirTextOrFailTheirCall) {
    mcp::Client client(fake("replies"), {.protocol_version = "2025-11-25"});
    client.connect();
    ASSERT_EQ(client.era(), mcp::Era::sessions);
    for (const bool inline_completion : {true, false}) {
        const auto call = [&](const std::string& tool) {
            auto outcome = std::make_shared<std::promise<mcp::CallToolResult>>();
            client.async_call_tool(tool, {}, {.timeout = 10s, .inline_completion = inline_completion},
                                   [outcome](std::exception_ptr error, mcp::CallToolResult result) {
                                       if (error)
                                           outcome->set_exception(error);
                                       else
                                           outcome->set_value(std::move(result));
                                   });
            return outcome->get_future().get();
        };
        EXPECT_EQ(first_text(call("result-first")), "result first");
        EXPECT_EQ(first_text(call("extra-member")), "extra");
        const auto rich = call("rich");
        ASSERT_EQ(rich.content.size(), 2u);
        EXPECT_EQ(first_text(rich), "rich");
        EXPECT_EQ(std::get<mcp::TextContent>(rich.content[0]).annotations.priority, 1.0);
        EXPECT_EQ(std::get<mcp::ImageContent>(rich.content[1]).mime_type, "image/png");
        ASSERT_TRUE(rich.structured_content);
        EXPECT_EQ(rich.structured_content->at("n"), 1);
        EXPECT_TRUE(rich.is_error);
        EXPECT_EQ(rich.meta.at("k"), "v");
        for (const std::string tool : {"malformed", "result-and-error", "no-text"})
            EXPECT_THROW(call(tool), mcp::ProtocolViolation) << tool;
        EXPECT_EQ(first_text(call("result-first")), "result first");  // the connection is still good
    }
}

TEST_F(ClientStdioHostile, ToolsWithInvalidHeaderAnnotationsAreDroppedFromListings) {
    mcp::Client client(fake("tools"));
    client.connect();
    const auto tools = client.all_tools();
    ASSERT_EQ(tools.size(), 2u);
    EXPECT_EQ(tools[0].name, "good");
    // Schemas are kept as they came, remote references and all, and nothing is fetched: a remote
    // $ref of the output schema is not enforced.
    EXPECT_EQ(tools[1].name, "remote_ref");
    EXPECT_EQ(tools[1].input_schema.at("$ref"), "https://schemas.example.invalid/input.json");
    EXPECT_EQ(tools[1].output_schema->at("$ref"), "https://schemas.example.invalid/output.json");
    EXPECT_EQ(first_text(client.call_tool("remote_ref")), "ok");
}

TEST_F(ClientStdioHostile, AServerThatNeverAnswersTimesOut) {
    mcp::Client client(fake("mute"));
    client.connect();
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(client.call_tool("anything", {}, {.timeout = 300ms}), mcp::RequestTimeout);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST_F(ClientStdioHostile, AnEndlessStreamOfNotificationsCostsBoundedMemory) {
    std::atomic<int> delivered{0};
    mcp::ClientHandlers handlers;
    handlers.log = [&](const mcp::LogMessage&) {
        std::this_thread::sleep_for(1ms);  // a callback slower than the server
        ++delivered;
    };
    mcp::Client client(fake("flood"), {.handlers = handlers, .max_queued_notifications = 100});
    client.connect();
    EXPECT_EQ(first_text(client.call_tool("anything")), "ok");
    const auto stats = client.stats();
    EXPECT_GT(stats.dropped_notifications, 0u);
    EXPECT_TRUE(
        eventually([&] { return delivered.load() + static_cast<int>(client.stats().dropped_notifications) == 20000; }));
}

TEST_F(ClientStdioHostile, AnInputRequiredLoopEndsAtTheRoundLimitAfterEchoingEachState) {
    mcp::ClientHandlers handlers;
    handlers.elicitation = [](const mcp::Elicitation&) { return mcp::ElicitResult{mcp::ElicitAction::accept, {}}; };
    mcp::Client client(fake("input-loop"), {.handlers = handlers, .max_input_rounds = 3});
    client.connect();
    try {
        client.call_tool("anything");
        FAIL() << "no InputRoundsExceeded";
    } catch (const mcp::InputRoundsExceeded& e) {
        EXPECT_EQ(e.rounds(), 3);
    }  // a retry that changed the state, reused an id or left out the answer would be an mcp::Error
}
