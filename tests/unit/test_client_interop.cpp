// mcp::Client and mcp::ClientGroup over stdio against servers nobody here wrote, from npm
// (tests/e2e/package.json): @modelcontextprotocol/server-everything (tools with sampling,
// elicitation and progress, resources, prompts, completion, logging, subscriptions),
// server-filesystem (reads and writes in its root) and server-memory (a knowledge graph), each run
// as `node <its bin>`; and the group over all three and the demo from a Claude Desktop file and
// from a VS Code one (envFile, ${env:...}, ${workspaceFolder}).
#include "client_test_support.hpp"
#include "interop_support.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/group.hpp>
#include <mcp/client/stdio.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using client_testing::eventually;
using client_testing::TempDir;
using interop::contains;
using interop::has_tool;
using interop::text_of;

const fs::path kModules = fs::path(MCP_E2E_NODE_MODULES) / "@modelcontextprotocol";

fs::path bin_of(const std::string& package) { return interop::installed(kModules / package / "dist" / "index.js"); }

mcp::StdioServerParams everything() {
    return {.command = MCP_NODE_PATH, .args = {bin_of("server-everything"), "stdio"}};
}

// ---- server-everything.

class InteropEverything : public ::testing::Test {
protected:
    void SetUp() override {
        mcp::ClientOptions options;
        options.handlers.elicitation = [this](const mcp::Elicitation& e) {
            ++elicitations;
            EXPECT_TRUE(e.requested_schema.contains("properties"));
            return mcp::ElicitResult{mcp::ElicitAction::accept, {{"name", "Ada Lovelace"}, {"check", true}}};
        };
        options.handlers.sampling = [this](const mcp::SamplingRequest& r) {
            ++samplings;
            EXPECT_EQ(r.system_prompt, "You are a helpful test server.");
            return mcp::SamplingResult{
                mcp::Role::assistant, {mcp::text("sampled by C++")}, "cpp-test-model", "endTurn", {}};
        };
        options.handlers.log = [this](const mcp::LogMessage& m) {
            std::lock_guard lock(mutex);
            logs.push_back(m.data.is_string() ? std::string(m.data.get_string()) : boost::json::serialize(m.data));
        };
        options.handlers.resource_updated = [this](const std::string& uri) {
            std::lock_guard lock(mutex);
            updated.push_back(uri);
        };
        options.handlers.server_stderr = [](std::string_view) {};
        client = std::make_unique<mcp::Client>(std::make_shared<mcp::StdioTransport>(everything()), options);
        client->connect();
    }

    std::atomic<int> elicitations{0};
    std::atomic<int> samplings{0};
    std::mutex mutex;
    std::vector<std::string> logs;
    std::vector<std::string> updated;
    // Last, so destroyed first: its handlers use the members above, and notifications the server
    // sent at the end of a test (log messages) are handed to them while it closes.
    std::unique_ptr<mcp::Client> client;
};

TEST_F(InteropEverything, ToolsIncludingSamplingElicitationAndProgress) {
    EXPECT_EQ(client->era(), mcp::Era::sessions);  // a 2025 server: discover refused, initialize taken
    EXPECT_EQ(client->server_info().name, "mcp-servers/everything");
    // The tools that need the client's capabilities come once it is initialized.
    std::vector<mcp::Tool> tools;
    ASSERT_TRUE(eventually([&] {
        tools = client->all_tools();
        return has_tool(tools, "trigger-sampling-request") && has_tool(tools, "trigger-elicitation-request");
    }));
    EXPECT_TRUE(has_tool(tools, "echo"));

    EXPECT_EQ(text_of(client->call_tool("echo", {{"message", "hi from C++"}})), "Echo: hi from C++");
    EXPECT_TRUE(contains(text_of(client->call_tool("get-sum", {{"a", 2}, {"b", 3}})), "is 5"));
    const auto weather = client->call_tool("get-structured-content", {{"location", "Chicago"}});
    ASSERT_TRUE(weather.structured_content);  // checked against the listed outputSchema
    EXPECT_TRUE(weather.structured_content->as_object().contains("humidity"));

    std::vector<double> steps;
    const auto done = client->call_tool("trigger-long-running-operation", {{"duration", 0.3}, {"steps", 3}},
                                        {.on_progress = [&](const mcp::Progress& p) {
                                            std::lock_guard lock(mutex);
                                            steps.push_back(p.progress);
                                        }});
    EXPECT_TRUE(contains(text_of(done), "Long running operation completed"));
    // Progress callbacks run on the callback pool, in order; the last may follow the result.
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(mutex);
        return steps == std::vector<double>{1, 2, 3};
    }));

    EXPECT_TRUE(
        contains(text_of(client->call_tool("trigger-sampling-request", {{"prompt", "hello"}})), "sampled by C++"));
    EXPECT_EQ(samplings.load(), 1);
    const auto elicited = text_of(client->call_tool("trigger-elicitation-request"));
    EXPECT_TRUE(contains(elicited, "Ada Lovelace")) << elicited;
    EXPECT_EQ(elicitations.load(), 1);
    // The TypeScript SDK answers an unknown tool with a tool error, not a JSON-RPC one.
    const auto unknown = client->call_tool("no-such-tool");
    EXPECT_TRUE(unknown.is_error);
    EXPECT_TRUE(contains(text_of(unknown), "no-such-tool")) << text_of(unknown);
}

TEST_F(InteropEverything, ResourcesTemplatesPromptsAndCompletion) {
    // server-everything 2026.8.31 lists in one page; pages are followed in test_client_in_process.
    const auto resources = client->all_resources();
    ASSERT_FALSE(resources.empty());
    const auto doc = std::find_if(resources.begin(), resources.end(),
                                  [](const mcp::Resource& r) { return contains(r.uri, "instructions.md"); });
    ASSERT_NE(doc, resources.end());
    const auto read = client->read_resource(doc->uri);
    EXPECT_FALSE(std::get<mcp::TextResourceContents>(read.contents.front()).text.empty());

    const auto templates = client->all_resource_templates();
    EXPECT_TRUE(std::any_of(templates.begin(), templates.end(), [](const mcp::ResourceTemplate& t) {
        return t.uri_template == "demo://resource/dynamic/text/{resourceId}";
    }));
    const auto text = client->read_resource("demo://resource/dynamic/text/3");
    EXPECT_TRUE(contains(std::get<mcp::TextResourceContents>(text.contents.front()).text, "Resource 3"));
    const auto blob = client->read_resource("demo://resource/dynamic/blob/4");
    EXPECT_FALSE(std::get<mcp::BlobResourceContents>(blob.contents.front()).blob.empty());

    const auto prompts = client->all_prompts();
    EXPECT_GE(prompts.size(), 3u);
    const auto simple = client->get_prompt("simple-prompt");
    ASSERT_FALSE(simple.messages.empty());
    const auto completed = client->complete(mcp::CompletionRef::prompt("completable-prompt"), "department", "En");
    EXPECT_EQ(completed.values, std::vector<std::string>{"Engineering"});
    const auto names = client->complete(mcp::CompletionRef::prompt("completable-prompt"), "name", "A",
                                        {{"department", "Engineering"}});
    EXPECT_EQ(names.values, std::vector<std::string>{"Alice"});
    const auto promoted = client->get_prompt("completable-prompt", {{"department", "Sales"}, {"name", "Eve"}});
    EXPECT_TRUE(contains(text_of({.content = {promoted.messages.front().content}}), "promote Eve"));
}

TEST_F(InteropEverything, LoggingAndSubscriptions) {
    client->set_log_level(mcp::LogLevel::debug);
    const std::string uri = "demo://resource/static/document/architecture.md";
    client->subscribe(uri);  // the server logs that it was asked
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(mutex);
        return std::any_of(logs.begin(), logs.end(), [&](const std::string& l) { return contains(l, uri); });
    }));
    client->call_tool("toggle-subscriber-updates");  // an update at once for each subscribed URI
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(mutex);
        return std::find(updated.begin(), updated.end(), uri) != updated.end();
    }));
    const auto before = [&] {
        std::lock_guard lock(mutex);
        return logs.size();
    }();
    client->call_tool("toggle-simulated-logging");  // one message at once, of a random level
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(mutex);
        return logs.size() > before;
    }));
    client->unsubscribe(uri);
    client->call_tool("toggle-subscriber-updates");
    client->call_tool("toggle-simulated-logging");
}

// ---- server-filesystem and server-memory.

TEST(InteropFilesystem, ReadsAndWritesInItsRootOnly) {
    TempDir root;
    const auto dir = fs::canonical(root.path()).string();
    mcp::Client client(std::make_shared<mcp::StdioTransport>(
        mcp::StdioServerParams{.command = MCP_NODE_PATH, .args = {bin_of("server-filesystem"), dir}}));
    client.connect();
    const auto file = dir + "/notes.txt";
    EXPECT_FALSE(client.call_tool("write_file", {{"path", file}, {"content", "written from C++\n"}}).is_error);
    std::string on_disk;
    std::getline(std::ifstream(file), on_disk);
    EXPECT_EQ(on_disk, "written from C++");
    EXPECT_EQ(text_of(client.call_tool("read_text_file", {{"path", file}})), "written from C++\n");
    EXPECT_TRUE(contains(text_of(client.call_tool("list_directory", {{"path", dir}})), "[FILE] notes.txt"));
    const auto outside = client.call_tool("read_text_file", {{"path", "/etc/hostname"}});
    EXPECT_TRUE(outside.is_error);
    EXPECT_TRUE(contains(text_of(outside), "Access denied")) << text_of(outside);
}

TEST(InteropMemory, CreatesEntitiesAndReadsTheGraph) {
    TempDir dir;
    const auto store = dir.path() / "memory.jsonl";
    mcp::Client client(std::make_shared<mcp::StdioTransport>(mcp::StdioServerParams{
        .command = MCP_NODE_PATH, .args = {bin_of("server-memory")}, .env = {{"MEMORY_FILE_PATH", store.string()}}}));
    client.connect();
    const boost::json::array entities{
        {{"name", "Ada"}, {"entityType", "person"}, {"observations", {"wrote the first program"}}},
        {{"name", "Analytical Engine"}, {"entityType", "machine"}, {"observations", {"never finished"}}}};
    EXPECT_FALSE(client.call_tool("create_entities", {{"entities", entities}}).is_error);
    EXPECT_FALSE(
        client
            .call_tool(
                "create_relations",
                {{"relations",
                  boost::json::array{{{"from", "Ada"}, {"to", "Analytical Engine"}, {"relationType", "programmed"}}}}})
            .is_error);
    const auto graph = client.call_tool("read_graph");
    ASSERT_TRUE(graph.structured_content);
    const auto& g = graph.structured_content->as_object();
    EXPECT_EQ(g.at("entities").as_array().size(), 2u);
    EXPECT_EQ(g.at("relations").as_array().at(0).at("relationType"), "programmed");
    EXPECT_TRUE(fs::exists(store));  // where MEMORY_FILE_PATH said
}

// ---- The group over all three and the demo, from each host's file.

class InteropGroup : public ::testing::Test {
protected:
    void SetUp() override {
        demo = std::getenv("MCP_CPP_DEMO") != nullptr ? std::getenv("MCP_CPP_DEMO") : "";
        ASSERT_FALSE(demo.empty()) << "MCP_CPP_DEMO is not set (ctest sets it)";
        root = fs::canonical(files.path()).string();
    }

    // Connects the group, checks what every server serves through it, and returns it.
    void check(mcp::ClientGroup& group) {
        ASSERT_TRUE(group.wait_connected(30s)) << [&] {
            std::string why;
            for (const auto& s : group.servers())
                why += s.name + ": " + std::string(to_string(s.status)) + " " + s.error + "\n";
            return why;
        }();
        std::vector<std::string> names;
        for (const auto& t : group.tools()) names.push_back(t.name);
        const auto has = [&](const std::string& n) { return std::find(names.begin(), names.end(), n) != names.end(); };
        // echo is both the demo's and server-everything's: each prefixed. The rest keep their names.
        EXPECT_TRUE(has("everything_echo") && has("demo_echo") && !has("echo"));
        EXPECT_TRUE(has("read_text_file") && has("create_entities") && has("get-sum") && has("word_stats"));
        EXPECT_EQ(text_of(group.call_tool("everything_echo", {{"message", "x"}})), "Echo: x");
        EXPECT_EQ(text_of(group.call_tool("demo_echo", {{"text", "x"}})), "x");

        const auto file = root + "/group.txt";
        EXPECT_FALSE(group.call_tool("write_file", {{"path", file}, {"content", "through the group"}}).is_error);
        EXPECT_EQ(text_of(group.call_tool("read_text_file", {{"path", file}})), "through the group");
        EXPECT_FALSE(group
                         .call_tool("create_entities",
                                    {{"entities", boost::json::array{{{"name", "Grace"},
                                                                      {"entityType", "person"},
                                                                      {"observations", boost::json::array{}}}}}})
                         .is_error);
        EXPECT_TRUE(contains(text_of(group.call_tool("read_graph")), "Grace"));
        EXPECT_FALSE(group.read_resource("demo://server/stats").contents.empty());  // routed to the demo

        // Each server has its own environment: the memory server's settings reach it alone.
        const auto env = boost::json::parse(text_of(group.call_tool("get-env"))).as_object();
        EXPECT_FALSE(env.contains("MEMORY_FILE_PATH"));
        EXPECT_FALSE(env.contains("MEMORY_SECRET"));
        EXPECT_EQ(env.at("EVERYTHING_TOKEN"), "token-for-everything");
        EXPECT_TRUE(fs::exists(files.path() / "memory.jsonl"));
    }

    TempDir files;
    std::string root;
    std::string demo;
};

std::string json_string(const std::string& s) { return boost::json::serialize(boost::json::value(s)); }

TEST_F(InteropGroup, FromAClaudeDesktopFile) {
    const auto node = json_string(MCP_NODE_PATH);
    const auto config = files.write("claude_desktop_config.json", R"({"mcpServers": {
      "everything": {"command": )" + node + R"(, "args": [)" + json_string(bin_of("server-everything")) +
                                                                      R"(, "stdio"],
                     "env": {"EVERYTHING_TOKEN": "token-for-everything"}},
      "filesystem": {"command": )" + node + R"(, "args": [)" + json_string(bin_of("server-filesystem")) +
                                                                      ", " + json_string(root) + R"(]},
      "memory": {"command": )" + node + R"(, "args": [)" + json_string(bin_of("server-memory")) +
                                                                      R"(],
                 "env": {"MEMORY_FILE_PATH": )" + json_string(root + "/memory.jsonl") +
                                                                      R"(, "MEMORY_SECRET": "m"}},
      "demo": {"command": )" + json_string(demo) + R"(, "args": ["--log-level", "warn"]}
    }})");
    mcp::ClientGroup group;
    for (auto& server : mcp::read_server_config(config)) group.add(std::move(server));
    check(group);
}

TEST_F(InteropGroup, FromAVsCodeFileWithEnvFileAndVariables) {
    ::setenv("MCP_INTEROP_TOKEN", "token-for-everything", 1);
    files.write("memory.env", "# the memory server's settings\nexport MEMORY_FILE_PATH=\"" + root +
                                  "/memory.jsonl\"\nMEMORY_SECRET='m # not a comment'\n");
    const auto node = json_string(MCP_NODE_PATH);
    const auto config =
        files.write("mcp.json", R"({
      // .vscode/mcp.json
      "servers": {
        "everything": {"type": "stdio", "command": )" +
                                    node + R"(, "args": [)" + json_string(bin_of("server-everything")) +
                                    R"(, "stdio"], "env": {"EVERYTHING_TOKEN": "${env:MCP_INTEROP_TOKEN}"}},
        "filesystem": {"type": "stdio", "command": )" +
                                    node + R"(, "args": [)" + json_string(bin_of("server-filesystem")) +
                                    R"(, "${workspaceFolder}"]},
        "memory": {"type": "stdio", "command": )" +
                                    node + R"(, "args": [)" + json_string(bin_of("server-memory")) +
                                    R"(], "envFile": "${workspaceFolder}/memory.env"},
        "demo": {"type": "stdio", "command": )" +
                                    json_string(demo) + R"(},
      },
    })");
    mcp::ClientGroup group;
    for (auto& server : mcp::read_server_config(config, {.workspace_folder = root})) group.add(std::move(server));
    check(group);
}

TEST_F(InteropGroup, EachServerGetsTheClientOptionsTheHostGivesIt) {
    mcp::ClientGroupOptions options;
    // With an elicitation handler declared, server-everything registers its elicitation tool once
    // initialized (refreshing on list_changed is test_client_group's).
    options.client_options = [](const mcp::ServerConfig&) {
        mcp::ClientOptions c;
        c.handlers.elicitation = [](const mcp::Elicitation&) {
            return mcp::ElicitResult{mcp::ElicitAction::decline, {}};
        };
        return c;
    };
    mcp::ClientGroup group(options);
    group.add(
        {.name = "everything", .command = MCP_NODE_PATH, .args = {bin_of("server-everything").string(), "stdio"}});
    ASSERT_TRUE(group.wait_connected(30s));
    EXPECT_TRUE(eventually([&] {
        const auto tools = group.tools();
        return std::any_of(tools.begin(), tools.end(),
                           [](const mcp::GroupTool& t) { return t.name == "trigger-elicitation-request"; });
    }));
    EXPECT_TRUE(contains(text_of(group.call_tool("trigger-elicitation-request")), "decline"));
}

}  // namespace
