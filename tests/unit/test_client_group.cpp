// Host configuration files (both formats, envFile, variables, hostile entries), the group's naming
// rule and backoff, and mcp::ClientGroup over in-process servers: lists to the last page, names
// and routing, refresh on list changes in both revisions, reconnection, failures kept to their
// server, and each server's own lifetime.
#include "client_test_support.hpp"

#include "client/config/dotenv.hpp"
#include "client/group/backoff.hpp"
#include "client/group/naming.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/client/group.hpp>
#include <mcp/client/http.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;

namespace {

using client_testing::eventually;
using client_testing::first_text;
using client_testing::TempDir;

using Env = std::vector<std::pair<std::string, std::string>>;

// ---- Configuration files.

mcp::ConfigOptions with_env(std::map<std::string, std::string> vars) {
    mcp::ConfigOptions options;
    options.environment = [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
    return options;
}

TEST(ClientConfig, ReadsClaudeDesktopAndCursorEntries) {
    const auto servers = mcp::parse_server_config(R"({
      "mcpServers": {
        "notes": {"command": "mcp-cpp-demo", "args": ["--stdio", "--port", 8080], "env": {"LEVEL": "warn"},
                  "cwd": "/srv", "autoApprove": ["echo"]},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer t0ken"}},
        "legacy": {"type": "sse", "url": "http://127.0.0.1:3001/sse"}
      }})");
    ASSERT_EQ(servers.size(), 3u);
    EXPECT_EQ(servers[0].name, "notes");
    EXPECT_EQ(servers[0].transport, mcp::ServerTransportKind::stdio);
    EXPECT_EQ(servers[0].command, "mcp-cpp-demo");
    EXPECT_EQ(servers[0].args, (std::vector<std::string>{"--stdio", "--port", "8080"}));
    EXPECT_EQ(servers[0].env, (Env{{"LEVEL", "warn"}}));
    EXPECT_EQ(servers[0].cwd, "/srv");
    EXPECT_EQ(servers[1].transport, mcp::ServerTransportKind::http);
    EXPECT_EQ(servers[1].url, "https://example.com/mcp");
    EXPECT_EQ(servers[1].headers, (Env{{"Authorization", "Bearer t0ken"}}));
    EXPECT_EQ(servers[2].transport, mcp::ServerTransportKind::sse);
}

TEST(ClientConfig, ReadsAStdioEntrysLimitsWhichWinOverDefaultsFieldByField) {
    const auto servers = mcp::parse_server_config(R"({"mcpServers": {
        "limited": {"command": "x", "limits": {"memoryMiB": 1024, "cpuSeconds": 600, "openFiles": 256, "processes": 64}},
        "partly": {"command": "x", "limits": {"openFiles": 1048576}},
        "free": {"command": "x"}}})");
    ASSERT_EQ(servers.size(), 3u);
    EXPECT_EQ(servers[0].limits.memory_mib, 1024u);
    EXPECT_EQ(servers[0].limits.cpu_seconds, 600u);
    EXPECT_EQ(servers[0].limits.open_files, 256u);
    EXPECT_EQ(servers[0].limits.processes, 64u);
    EXPECT_TRUE(servers[2].limits.empty());
    const mcp::StdioLimits defaults{.memory_mib = 4096, .open_files = 100};
    const auto partly = servers[1].limits.or_defaults(defaults);
    EXPECT_EQ(partly.memory_mib, 4096u);
    EXPECT_EQ(partly.open_files, 1048576u);  // the entry's own
    EXPECT_FALSE(partly.cpu_seconds.has_value());
    EXPECT_FALSE(partly.processes.has_value());
}

TEST(ClientConfig, ReadsVsCodeServersWithEnvFileAndVariables) {
    TempDir dir;
    dir.write(".env",
              "# the tokens\nexport TOKEN='s3cret # kept'\nLEVEL=debug # a comment\n"
              "GREETING=\"line one\\nline two\"\nMULTI=\"a\nb\"\n\nEMPTY=\n");
    const auto file = dir.write("mcp.json", R"({
      // VS Code writes JSONC
      "inputs": [{"type": "promptString", "id": "unused"}],
      "servers": {
        "local": {
          "type": "stdio",
          "command": "${workspaceFolder}/bin/server",
          "args": ["--home", "${userHome}", "--user", "${env:USER}", "--missing", "${env:NOT_SET}", "${HOME}"],
          "envFile": ".env",
          "env": {"LEVEL": "trace", "API_KEY": "${env:API_KEY}"},
        },
        "web": {"type": "http", "url": "https://${env:HOST}/mcp", "headers": {"X-Key": "${env:API_KEY}"}},
      },
    })");
    auto options = with_env({{"USER", "ada"}, {"HOME", "/home/ada"}, {"API_KEY", "k-123"}, {"HOST", "example.com"}});
    options.workspace_folder = "/work/project";
    const auto servers = mcp::read_server_config(file, options);
    ASSERT_EQ(servers.size(), 2u);
    const auto& local = servers[0];
    EXPECT_EQ(local.command, "/work/project/bin/server");
    EXPECT_EQ(local.args,
              (std::vector<std::string>{"--home", "/home/ada", "--user", "ada", "--missing", "", "${HOME}"}));
    // envFile first, then env, which wins for LEVEL.
    EXPECT_EQ(local.env, (Env{{"TOKEN", "s3cret # kept"},
                              {"GREETING", "line one\nline two"},
                              {"MULTI", "a\nb"},
                              {"EMPTY", ""},
                              {"LEVEL", "trace"},
                              {"API_KEY", "k-123"}}));
    EXPECT_EQ(servers[1].url, "https://example.com/mcp");
    EXPECT_EQ(servers[1].headers, (Env{{"X-Key", "k-123"}}));
}

TEST(ClientConfig, VsCodeInputsAndCommandsAreRefusedNamingTheVariable) {
    try {
        mcp::parse_server_config(
            R"({"servers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/",
                                       "headers": {"Authorization": "Bearer ${input:github_token}"}}}})");
        FAIL() << "an input was accepted";
    } catch (const mcp::ConfigError& e) {
        EXPECT_EQ(e.server(), "github");
        EXPECT_EQ(e.field(), "headers.Authorization");
        EXPECT_NE(std::string(e.what()).find("${input:github_token}"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("VS Code input"), std::string::npos) << e.what();
    }
    EXPECT_THROW(mcp::parse_server_config(R"({"servers": {"s": {"command": "${command:pick}"}}})"), mcp::ConfigError);
    try {
        mcp::parse_server_config(R"({"servers": {"s": {"command": "${workspaceFolder}/x"}}})");
        FAIL() << "a workspace folder was made up";
    } catch (const mcp::ConfigError& e) {
        EXPECT_EQ(e.field(), "command");
        EXPECT_NE(std::string(e.what()).find("${workspaceFolder}"), std::string::npos) << e.what();
    }
}

struct Hostile {
    const char* json;
    const char* server;
    const char* field;
    const char* says;
};

TEST(ClientConfig, HostileEntriesAreRefusedNamingTheServerAndTheField) {
    const Hostile cases[] = {
        {R"({"mcpServers": {"a": {"command": 42}}})", "a", "command", "expected a string"},
        {R"({"mcpServers": {"a": {"command": "x", "args": "--flag"}}})", "a", "args", "array of strings"},
        {R"({"mcpServers": {"a": {"command": "x", "args": ["ok", {"no": 1}]}}})", "a", "args[1]", "expected a string"},
        {R"({"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}})", "a", "env", "object of strings"},
        {R"({"mcpServers": {"a": {"command": "x", "env": {"A": {"nested": true}}}}})", "a", "env.A",
         "expected a string"},
        {R"({"mcpServers": {"a": {"command": "x", "env": {"A=B": "1"}}}})", "a", "env.A=B", "variable name"},
        {R"({"mcpServers": {"a": {"url": "https://h/mcp", "headers": {"X": "v\r\nInjected: yes"}}}})", "a", "headers.X",
         "CR, LF"},
        {R"({"mcpServers": {"a": {"url": "https://h/mcp", "headers": {"Bad Name": "v"}}}})", "a", "headers.Bad Name",
         "header name"},
        {R"({"servers": {"a": {"type": "websocket", "url": "wss://h"}}})", "a", "type", "unknown type \"websocket\""},
        {R"({"servers": {"a": {"type": "stdio"}}})", "a", "command", "needs a command"},
        {R"({"servers": {"a": {"type": "http"}}})", "a", "url", "needs a url"},
        {R"({"servers": {"a": {"args": ["x"]}}})", "a", "", "needs a command"},
        {R"({"servers": {"a": {"command": "x", "url": "https://h"}}})", "a", "", "both a command and a url"},
        {R"({"servers": {"a": {"url": "ftp://h/mcp"}}})", "a", "url", "no http:// or https:// URL"},
        {R"({"servers": {"a": {"url": "https:///mcp"}}})", "a", "url", "names no host"},
        {R"({"servers": {"a": {"type": "stdio", "command": "x", "headers": {}}}})", "a", "headers", "http and sse"},
        {R"({"servers": {"a": {"type": "sse", "url": "http://h/sse", "envFile": ".env"}}})", "a", "envFile",
         "stdio servers"},
        {R"({"servers": {"a": {"command": "x", "oauth": {}}}})", "a", "oauth", "http and sse"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": "client_credentials"}}})", "a", "oauth",
         "expected an object"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"grant": "password"}}}})", "a", "oauth.grant",
         "unknown grant \"password\""},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"grant": "client_credentials"}}}})", "a",
         "oauth.clientId", "needs the client's id"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"clientSecret": 42}}}})", "a", "oauth.clientSecret",
         "expected a string"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"scopes": "a b"}}}})", "a", "oauth.scopes",
         "array of strings"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"scopes": ["a b"]}}}})", "a", "oauth.scopes",
         "scope tokens"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"scopes": [""]}}}})", "a", "oauth.scopes",
         "scope tokens"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"client_id": "x"}}}})", "a", "oauth.client_id",
         "unknown field"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "oauth": {"clientId": "${input:id}"}}}})", "a", "oauth.clientId",
         "input"},
        {R"({"servers": {"a": {"command": "x", "limits": 512}}})", "a", "limits", "expected an object"},
        {R"({"servers": {"a": {"command": "x", "limits": {"memoryMiB": -1}}}})", "a", "limits.memoryMiB",
         "whole number from 1 to 1048576, not -1"},
        {R"({"servers": {"a": {"command": "x", "limits": {"memoryMiB": 0}}}})", "a", "limits.memoryMiB", "not 0"},
        {R"({"servers": {"a": {"command": "x", "limits": {"memoryMiB": 1048577}}}})", "a", "limits.memoryMiB",
         "not 1048577"},
        {R"({"servers": {"a": {"command": "x", "limits": {"cpuSeconds": 18446744073709551615}}}})", "a",
         "limits.cpuSeconds", "from 1 to 31622400"},
        {R"({"servers": {"a": {"command": "x", "limits": {"cpuSeconds": 1e30}}}})", "a", "limits.cpuSeconds",
         "whole number"},
        {R"({"servers": {"a": {"command": "x", "limits": {"openFiles": 1.5}}}})", "a", "limits.openFiles", "not 1.5"},
        {R"({"servers": {"a": {"command": "x", "limits": {"openFiles": "256"}}}})", "a", "limits.openFiles",
         "not \"256\""},
        {R"({"servers": {"a": {"command": "x", "limits": {"processes": true}}}})", "a", "limits.processes", "not true"},
        {R"({"servers": {"a": {"command": "x", "limits": {"processes": 4194305}}}})", "a", "limits.processes",
         "from 1 to 4194304"},
        {R"({"servers": {"a": {"command": "x", "limits": {"memoryMB": 512}}}})", "a", "limits.memoryMB",
         "unknown field (expected memoryMiB, cpuSeconds, openFiles, processes)"},
        {R"({"servers": {"a": {"url": "https://h/mcp", "limits": {"memoryMiB": 512}}}})", "a", "limits",
         "stdio servers"},
        {R"({"servers": {"a": "npx server"}})", "a", "", "expected an object"},
        {R"({"servers": {"": {"command": "x"}}})", "", "", "1 to 128 characters"},
        {R"({"servers": []})", "", "servers", "object of servers"},
        {R"({"mcpServers": {}, "servers": {}})", "", "", "both mcpServers and servers"},
        {R"({"mcp": {"servers": {}}})", "", "", "neither mcpServers"},
        {R"([1, 2])", "", "", "expected a JSON object"},
        {"{\"servers\": {\"a\": {\"command\": \"x\"}},\n  oops}", "", "", "not JSON (line 2, column"},
        {R"({"servers": {"a": {"command": "x", "deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}})",
         "", "", "not JSON"},
    };
    for (const auto& c : cases) {
        try {
            mcp::parse_server_config(c.json);
            ADD_FAILURE() << "accepted: " << c.json;
        } catch (const mcp::ConfigError& e) {
            EXPECT_EQ(e.server(), c.server) << c.json;
            EXPECT_EQ(e.field(), c.field) << c.json;
            EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << e.what();
        }
    }
}

TEST(ClientConfig, HugeFilesAndTooManyServersAreRefused) {
    TempDir dir;
    mcp::ConfigOptions options;
    options.max_bytes = 4096;
    const auto big = dir.write("big.json", "{\"servers\": {}}" + std::string(5000, ' '));
    try {
        mcp::read_server_config(big, options);
        FAIL() << "a file over the limit was read";
    } catch (const mcp::ConfigError& e) {
        EXPECT_EQ(e.file(), big.string());
        EXPECT_NE(std::string(e.what()).find("larger than 4096 bytes"), std::string::npos) << e.what();
    }
    dir.write("big.env", "A=" + std::string(5000, 'x') + "\n");
    const auto with_env_file = dir.write("env.json", R"({"servers": {"s": {"command": "x", "envFile": "big.env"}}})");
    try {
        mcp::read_server_config(with_env_file, options);
        FAIL() << "an envFile over the limit was read";
    } catch (const mcp::ConfigError& e) {
        EXPECT_EQ(e.field(), "envFile");
        EXPECT_NE(std::string(e.what()).find("larger than 4096 bytes"), std::string::npos) << e.what();
    }
    const auto missing = dir.write("missing.json", R"({"servers": {"s": {"command": "x", "envFile": "nope.env"}}})");
    EXPECT_THROW(mcp::read_server_config(missing, options), mcp::ConfigError);
    EXPECT_THROW(mcp::read_server_config(dir.path() / "absent.json"), mcp::ConfigError);

    std::string many = R"({"servers": {)";
    for (int i = 0; i < 300; ++i)
        many += (i ? "," : "") + std::string("\"s") + std::to_string(i) + "\": {\"command\": \"x\"}";
    many += "}}";
    EXPECT_THROW(mcp::parse_server_config(many), mcp::ConfigError);
}

TEST(ClientConfig, DotenvLinesAndTheirErrors) {
    EXPECT_EQ(mcp::detail::parse_dotenv("\xEF\xBB\xBF"
                                        "A=1\r\n  export B = two words  \r\nC='x\\ny'\nD=\"tab\\there\" # note\n"),
              (Env{{"A", "1"}, {"B", "two words"}, {"C", "x\\ny"}, {"D", "tab\there"}}));
    EXPECT_EQ(mcp::detail::parse_dotenv("URL=http://h/#frag\nexport=1\n"),
              (Env{{"URL", "http://h/#frag"}, {"export", "1"}}));
    for (const char* bad : {"JUST_A_NAME\n", "1A=x\n", "A=\"open\nB=2\n", "A='x' trailing\n", "BAD NAME=1\n"}) {
        EXPECT_THROW(mcp::detail::parse_dotenv(bad), std::invalid_argument) << bad;
    }
    try {
        mcp::detail::parse_dotenv("A=1\n\nB\n");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
    }
}

TEST(ClientConfig, RemoteEntriesMakeHttpTransports) {
    const auto servers = mcp::parse_server_config(R"({"mcpServers": {
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer t"}},
        "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}})");
    ASSERT_EQ(servers.size(), 2U);
    for (const auto& server : servers) {
        const auto transport = mcp::make_transport(server);
        if (server.name == "remote")
            EXPECT_NE(dynamic_cast<mcp::HttpTransport*>(transport.get()), nullptr);
        else
            EXPECT_NE(dynamic_cast<mcp::LegacySseTransport*>(transport.get()), nullptr);
    }
    EXPECT_NE(mcp::make_transport({.name = "local", .command = "true"}), nullptr);
}

TEST(ClientConfig, OAuthOfARemoteEntryIsReadWithItsVariables) {
    mcp::ConfigOptions options;
    options.base_directory = "/etc/gateway";
    options.environment = [](const std::string& name) -> std::optional<std::string> {
        if (name == "SECRET") return "s3cret";
        return std::nullopt;
    };
    const auto servers = mcp::parse_server_config(R"({"mcpServers": {
        "service": {"url": "https://example.com/mcp", "oauth": {"grant": "client_credentials", "clientId": "gateway",
                    "clientSecret": "${env:SECRET}", "scopes": ["notes:read", "notes:write"], "tokenFile": "tokens/s.json"}},
        "user": {"type": "sse", "url": "https://example.com/sse", "oauth": {"tokenFile": "/var/lib/u.json"}},
        "plain": {"url": "https://example.com/other"}}})",
                                                  options);
    ASSERT_EQ(servers.size(), 3U);
    ASSERT_TRUE(servers[0].oauth.has_value());
    EXPECT_TRUE(servers[0].oauth->client_credentials);
    EXPECT_EQ(servers[0].oauth->client_id, "gateway");
    EXPECT_EQ(servers[0].oauth->client_secret, "s3cret");
    EXPECT_EQ(servers[0].oauth->scopes, (std::vector<std::string>{"notes:read", "notes:write"}));
    EXPECT_EQ(servers[0].oauth->token_file, "/etc/gateway/tokens/s.json");
    ASSERT_TRUE(servers[1].oauth.has_value());
    EXPECT_FALSE(servers[1].oauth->client_credentials);
    EXPECT_EQ(servers[1].oauth->token_file, "/var/lib/u.json");
    EXPECT_FALSE(servers[2].oauth.has_value());
    for (const auto& server : servers) EXPECT_NE(mcp::make_transport(server), nullptr) << server.name;
}

TEST(ClientConfig, ATransportThatCannotBeMadeNamesItsServer) {
    const mcp::ServerConfig config{.name = "remote", .transport = mcp::ServerTransportKind::http, .url = "ftp://x/mcp"};
    try {
        mcp::make_transport(config);
        FAIL() << "a transport was made for an ftp URL";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("server \"remote\""), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("not an http(s) URL"), std::string::npos) << e.what();
    }
}

// ---- Naming and backoff.

std::vector<std::string> names(const std::vector<mcp::detail::ListedName>& entries, mcp::GroupNaming naming,
                               const std::function<std::string(const mcp::NameRequest&)>& hook = {}) {
    return mcp::detail::assign_names(entries, mcp::ListKind::tools, naming, hook);
}

TEST(GroupNaming, CollidingNamesAreEachPrefixedAndTheRestKept) {
    const std::vector<mcp::detail::ListedName> entries{
        {"files", "read"}, {"files", "write"}, {"notes", "read"}, {"my notes.v2", "search"}, {"web", "read"}};
    EXPECT_EQ(names(entries, mcp::GroupNaming::prefix_collisions),
              (std::vector<std::string>{"files_read", "write", "notes_read", "search", "web_read"}));
    EXPECT_EQ(names(entries, mcp::GroupNaming::prefix_always),
              (std::vector<std::string>{"files_read", "files_write", "notes_read", "my_notes_v2_search", "web_read"}));
}

TEST(GroupNaming, TheHookDecidesAndNamesStillEqualAreLeftOut) {
    const std::vector<mcp::detail::ListedName> entries{{"a", "x"}, {"b", "x"}, {"a", "y"}, {"a_y", "z"}};
    std::vector<bool> collides;
    const auto hooked = names(entries, mcp::GroupNaming::prefix_collisions, [&](const mcp::NameRequest& r) {
        collides.push_back(r.collides);
        return std::string(r.server) + "." + std::string(r.name);
    });
    EXPECT_EQ(hooked, (std::vector<std::string>{"a.x", "b.x", "a.y", "a_y.z"}));
    EXPECT_EQ(collides, (std::vector<bool>{true, true, false, false}));
    // "a" + "y_z" and "a_y" + "z" both make "a_y_z": neither wins by the order they came in.
    const std::vector<mcp::detail::ListedName> clash{{"a", "y_z"}, {"a_y", "z"}, {"b", "w"}};
    EXPECT_EQ(names(clash, mcp::GroupNaming::prefix_always), (std::vector<std::string>{"", "", "b_w"}));
    // A hook's empty name leaves the entry out.
    EXPECT_EQ(names(clash, mcp::GroupNaming::prefix_always,
                    [](const mcp::NameRequest& r) { return r.server == "b" ? std::string() : std::string(r.name); }),
              (std::vector<std::string>{"y_z", "z", ""}));
}

TEST(GroupBackoff, DoublesUpToTheMaximumAndJitterTakesAtMostHalf) {
    const mcp::ReconnectPolicy policy{.initial_delay = 100ms, .max_delay = 1000ms, .max_failures = 5};
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 1, 0), 100ms);
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 2, 0), 200ms);
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 4, 0), 800ms);
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 5, 0), 1000ms);
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 1000, 0), 1000ms);
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 2, 1), 100ms);
    EXPECT_EQ(mcp::detail::backoff_delay(policy, 1000, 0.5), 750ms);
}

// ---- The group over in-process servers.

struct TextIn {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(TextIn, (), (text))

// A server that says its name in every answer, with tools enough for several pages.
struct NamedServer {
    explicit NamedServer(const std::string& name)
        : server({.name = name, .version = "1"}, {.page_size = 2, .cache = {.list_ttl = 60s}}) {
        server.tool("echo", "Echoes, saying which server", [name](const TextIn& in) { return name + ": " + in.text; });
        server.tool(name + "_only", "Only this server has it", [name] { return name; });
        for (int i = 0; i < 3; ++i)
            server.tool(name + "_extra" + std::to_string(i), "Fills pages", [] { return std::string("extra"); });
        server.prompt("greet", "Greets", [name](const TextIn& in) { return name + " greets " + in.text; });
        server.resource("test://" + name + "/about", {.name = "about", .mime_type = "text/plain"},
                        [name] { return "about " + name; });
        server.resource("test://shared", {.name = "shared", .mime_type = "text/plain"}, [name] { return name; });
        server.resource_template("test://" + name + "/items/{id}", {.name = "item", .mime_type = "text/plain"},
                                 [name](std::string_view id) { return name + " item " + std::string(id); });
    }
    mcp::Server server;
};

class GroupInProcess : public ::testing::TestWithParam<std::string> {
protected:
    GroupInProcess() {
        for (const char* name : {"alpha", "beta"}) servers.emplace(name, std::make_unique<NamedServer>(name));
    }

    // Options whose transports reach the in-process servers (a name without one fails to start).
    mcp::ClientGroupOptions options() {
        mcp::ClientGroupOptions o;
        o.reconnect = {.initial_delay = 10ms, .max_delay = 200ms, .max_failures = 3};
        o.connect_timeout = 5s;
        o.client_options = [version = GetParam()](const mcp::ServerConfig&) {
            mcp::ClientOptions c;
            c.protocol_version = version;
            return c;
        };
        o.make_transport = [this](const mcp::ServerConfig& config) -> std::shared_ptr<mcp::ClientTransport> {
            std::lock_guard lock(mutex);
            ++connects[config.name];
            auto it = servers.find(config.name);
            if (it == servers.end() || refused.contains(config.name))
                throw std::runtime_error("cannot reach " + config.name);
            auto transport = mcp::in_process(it->second->server);
            transports[config.name] = transport;
            return transport;
        };
        return o;
    }

    static mcp::ServerConfig entry(const std::string& name) { return {.name = name, .command = "unused"}; }

    std::shared_ptr<mcp::ClientTransport> transport(const std::string& name) {
        std::lock_guard lock(mutex);
        return transports[name];
    }
    int connects_of(const std::string& name) {
        std::lock_guard lock(mutex);
        return connects[name];
    }

    std::map<std::string, std::unique_ptr<NamedServer>> servers;
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<mcp::ClientTransport>> transports;
    std::map<std::string, int> connects;
    std::set<std::string> refused;
};

std::vector<std::string> tool_names(const mcp::ClientGroup& group) {
    std::vector<std::string> out;
    for (const auto& t : group.tools()) out.push_back(t.name);
    std::sort(out.begin(), out.end());
    return out;
}

TEST_P(GroupInProcess, ListsEveryServerToTheLastPageAndRoutesByName) {
    mcp::ClientGroup group(options());
    group.add(entry("alpha"));
    group.add(entry("beta"));
    ASSERT_TRUE(group.wait_connected(10s));

    // Five tools a server, two to a page; "echo" is both servers', so both are prefixed.
    EXPECT_EQ(tool_names(group),
              (std::vector<std::string>{"alpha_echo", "alpha_extra0", "alpha_extra1", "alpha_extra2", "alpha_only",
                                        "beta_echo", "beta_extra0", "beta_extra1", "beta_extra2", "beta_only"}));
    for (const auto& t : group.tools()) {
        if (t.name == "beta_echo") {
            EXPECT_EQ(t.tool.name, "echo");
        }
    }
    EXPECT_EQ(first_text(group.call_tool("alpha_echo", {{"text", "hi"}})), "alpha: hi");
    EXPECT_EQ(first_text(group.call_tool("beta_echo", {{"text", "hi"}})), "beta: hi");
    EXPECT_EQ(first_text(group.call_tool("beta_only")), "beta");
    EXPECT_THROW(group.call_tool("echo"), std::invalid_argument);

    ASSERT_EQ(group.prompts().size(), 2u);
    EXPECT_EQ(group.get_prompt("beta_greet", {{"text", "Ada"}}).messages.size(), 1u);

    // Resources keep their URIs: one server's is routed to it, a shared one needs the server named.
    EXPECT_EQ(group.resources().size(), 4u);
    EXPECT_EQ(group.resource_templates().size(), 2u);
    const auto about = group.read_resource("test://beta/about");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(about.contents.front()).text, "about beta");
    const auto item = group.read_resource("test://alpha/items/7");
    EXPECT_EQ(std::get<mcp::TextResourceContents>(item.contents.front()).text, "alpha item 7");
    EXPECT_THROW(group.read_resource("test://shared"), std::invalid_argument);
    EXPECT_EQ(std::get<mcp::TextResourceContents>(group.read_resource("alpha", "test://shared").contents.front()).text,
              "alpha");
    EXPECT_THROW(group.read_resource("test://nobody"), std::invalid_argument);

    const auto states = group.servers();
    ASSERT_EQ(states.size(), 2u);
    EXPECT_EQ(states[0].status, mcp::ServerStatus::connected);
    EXPECT_EQ(states[1].server_info.name, "beta");
    EXPECT_FALSE(states[1].protocol_version.empty());
}

TEST_P(GroupInProcess, PrefixAlwaysAndANameHook) {
    auto o = options();
    o.naming = mcp::GroupNaming::prefix_always;
    mcp::ClientGroup always(o);
    always.add(entry("alpha"));
    ASSERT_TRUE(always.wait_connected(10s));
    EXPECT_EQ(tool_names(always).front(), "alpha_alpha_extra0");

    o.name = [](const mcp::NameRequest& r) {
        return r.collides ? std::string(r.server) + "__" + std::string(r.name) : std::string(r.name);
    };
    mcp::ClientGroup hooked(o);
    hooked.add(entry("alpha"));
    hooked.add(entry("beta"));
    ASSERT_TRUE(hooked.wait_connected(10s));
    EXPECT_EQ(first_text(hooked.call_tool("beta__echo", {{"text", "x"}})), "beta: x");
    EXPECT_EQ(first_text(hooked.call_tool("alpha_only")), "alpha");
}

TEST_P(GroupInProcess, ListsAreReadAgainWhenAServerSaysTheyChanged) {
    std::atomic<int> changes{0};
    auto o = options();
    o.on_change = [&] { ++changes; };
    mcp::ClientGroup group(o);
    group.add(entry("alpha"));
    group.add(entry("beta"));
    ASSERT_TRUE(group.wait_connected(10s));
    const int before = changes.load();

    servers["beta"]->server.tool("echo_late", "Registered after the group listed", [] { return std::string("late"); });
    ASSERT_TRUE(eventually([&] {
        const auto names = tool_names(group);
        return std::find(names.begin(), names.end(), "echo_late") != names.end();
    }));
    EXPECT_GT(changes.load(), before);
    EXPECT_EQ(first_text(group.call_tool("echo_late")), "late");

    servers["alpha"]->server.prompt("late_prompt", "Late", [] { return std::string("late"); });
    EXPECT_TRUE(eventually([&] { return group.prompts().size() == 3; }));
}

TEST_P(GroupInProcess, AServerThatWentAwayIsReconnectedAndTheOthersCarryOn) {
    std::mutex m;
    std::vector<mcp::ServerStatus> alpha_states;
    auto o = options();
    o.on_state = [&](const mcp::ServerState& s) {
        if (s.name != "alpha") return;
        std::lock_guard lock(m);
        alpha_states.push_back(s.status);
    };
    mcp::ClientGroup group(o);
    group.add(entry("alpha"));
    group.add(entry("beta"));
    ASSERT_TRUE(group.wait_connected(10s));
    auto old_client = group.client("alpha");
    ASSERT_NE(old_client, nullptr);

    transport("alpha")->close();  // the server went away
    // beta is not disturbed meanwhile.
    EXPECT_EQ(first_text(group.call_tool("beta_only")), "beta");
    ASSERT_TRUE(eventually([&] { return connects_of("alpha") == 2 && group.wait_connected(0ms); }));
    EXPECT_NE(group.client("alpha"), old_client);
    EXPECT_EQ(first_text(group.call_tool("alpha_echo", {{"text", "back"}})), "alpha: back");
    EXPECT_EQ(connects_of("beta"), 1);
    std::lock_guard lock(m);
    EXPECT_NE(std::find(alpha_states.begin(), alpha_states.end(), mcp::ServerStatus::reconnecting), alpha_states.end());
    EXPECT_EQ(alpha_states.back(), mcp::ServerStatus::connected);
}

TEST_P(GroupInProcess, AServerThatKeepsFailingIsGivenUpAloneAndMayBeRetried) {
    refused.insert("beta");
    mcp::ClientGroup group(options());
    group.add(entry("alpha"));
    group.add(entry("beta"));
    EXPECT_FALSE(group.wait_connected(10s));  // returns once beta has failed
    ASSERT_TRUE(eventually([&] { return group.server("beta")->status == mcp::ServerStatus::failed; }));
    const auto beta = *group.server("beta");
    EXPECT_EQ(beta.failures, 3);
    EXPECT_EQ(connects_of("beta"), 3);  // max_failures attempts, then no more
    EXPECT_NE(beta.error.find("cannot reach beta"), std::string::npos) << beta.error;
    ASSERT_TRUE(eventually([&] { return group.server("alpha")->status == mcp::ServerStatus::connected; }));
    EXPECT_EQ(tool_names(group).size(), 5u);  // alpha's, and its "echo" unprefixed: nobody else lists one
    EXPECT_EQ(first_text(group.call_tool("echo", {{"text", "x"}})), "alpha: x");
    try {
        group.read_resource("beta", "test://beta/about");
        FAIL() << "a failed server was read";
    } catch (const mcp::ServerUnavailable& e) {
        EXPECT_EQ(e.server(), "beta");
        EXPECT_EQ(e.status(), mcp::ServerStatus::failed);
    }

    {
        std::lock_guard lock(mutex);
        refused.clear();
    }
    EXPECT_TRUE(group.reconnect("beta"));
    EXPECT_TRUE(group.wait_connected(10s));
    EXPECT_EQ(first_text(group.call_tool("beta_echo", {{"text", "x"}})), "beta: x");
}

TEST_P(GroupInProcess, WaitAttemptReturnsEachServersStateOnceItsAttemptIsOver) {
    refused.insert("beta");
    mcp::ClientGroup group(options());
    group.add(entry("alpha"));
    group.add(entry("beta"));
    const auto alpha = group.wait_attempt("alpha", 10s);
    ASSERT_TRUE(alpha);
    EXPECT_EQ(alpha->status, mcp::ServerStatus::connected);
    EXPECT_NE(group.client("alpha"), nullptr);
    const auto beta = group.wait_attempt("beta", 10s);  // its first attempt failed: retrying, or given up
    ASSERT_TRUE(beta);
    EXPECT_NE(beta->status, mcp::ServerStatus::connecting);
    EXPECT_NE(beta->status, mcp::ServerStatus::connected);
    EXPECT_GE(beta->failures, 1);
    EXPECT_FALSE(group.wait_attempt("gamma", 10s));  // no such server: at once
    group.close();
    EXPECT_FALSE(group.wait_attempt("alpha", 10s));
}

TEST_P(GroupInProcess, AConfigurationRetryingCannotMendFailsAtOnce) {
    auto o = options();
    o.make_transport = {};  // mcp::make_transport, which refuses the URL below
    mcp::ClientGroup group(o);
    group.add({.name = "remote", .transport = mcp::ServerTransportKind::http, .url = "ftp://example.com/mcp"});
    EXPECT_FALSE(group.wait_connected(10s));
    const auto remote = *group.server("remote");
    EXPECT_EQ(remote.status, mcp::ServerStatus::failed);
    EXPECT_EQ(remote.failures, 1);
    EXPECT_NE(remote.error.find("not an http(s) URL"), std::string::npos) << remote.error;
}

TEST_P(GroupInProcess, EachServerHasItsOwnLifetime) {
    mcp::ClientGroup group(options());
    group.add(entry("alpha"));
    group.add(entry("beta"));
    EXPECT_THROW(group.add(entry("beta")), std::invalid_argument);
    ASSERT_TRUE(group.wait_connected(10s));
    auto beta_client = group.client("beta");

    EXPECT_TRUE(group.remove("alpha"));
    EXPECT_FALSE(group.remove("alpha"));
    EXPECT_FALSE(group.server("alpha"));
    EXPECT_EQ(group.client("alpha"), nullptr);
    // beta lost its rival for "echo": its own name now.
    EXPECT_EQ(first_text(group.call_tool("echo", {{"text", "x"}})), "beta: x");
    EXPECT_THROW(group.call_tool("alpha_only"), std::invalid_argument);
    EXPECT_EQ(group.client("beta"), beta_client);  // not reconnected by the removal

    group.add(entry("alpha"));  // back, as a new server
    ASSERT_TRUE(group.wait_connected(10s));
    EXPECT_EQ(connects_of("alpha"), 2);

    group.close();
    group.close();
    EXPECT_TRUE(group.servers().empty());
    EXPECT_THROW(group.add(entry("gamma")), std::logic_error);
    EXPECT_THROW(beta_client->call_tool("echo", {{"text", "x"}}), mcp::ConnectionClosed);
}

TEST_P(GroupInProcess, CallbacksMayCallTheGroupAndWhatTheyThrowIsSurvived) {
    std::atomic<int> tools_seen{0};
    std::atomic<int> refused{0};
    auto o = options();
    mcp::ClientGroup* self = nullptr;
    o.on_state = [&](const mcp::ServerState& s) {
        if (s.status == mcp::ServerStatus::connected) {
            try {
                self->remove(s.name);  // its own server: refused, as Client::close() from its callback is
            } catch (const std::logic_error&) {
                ++refused;
            }
        }
        throw std::runtime_error("a careless callback");
    };
    o.on_change = [&] { tools_seen = static_cast<int>(self->tools().size()); };
    mcp::ClientGroup group(o);
    self = &group;
    group.add(entry("alpha"));
    ASSERT_TRUE(group.wait_connected(10s));
    EXPECT_TRUE(eventually([&] { return tools_seen.load() == 5; }));
    EXPECT_EQ(refused.load(), 1);
    EXPECT_EQ(first_text(group.call_tool("echo", {{"text", "x"}})), "alpha: x");
}

INSTANTIATE_TEST_SUITE_P(Revisions, GroupInProcess, ::testing::Values("2025-11-25", "2026-07-28"),
                         [](const auto& param) { return param.param == "2025-11-25" ? "v2025" : "v2026"; });

}  // namespace
