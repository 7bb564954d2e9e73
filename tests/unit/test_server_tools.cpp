// Tools through the real core: registration rules, schemas, validation, results, errors, pagination.
#include "server_fixture.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/static_resource.hpp>

using namespace testing_support;

namespace tooltest {

struct Greet {
    std::string name;
    std::optional<int> times;
};
BOOST_DESCRIBE_STRUCT(Greet, (), (name, times))
inline void mcp_schema(mcp::json::SchemaHints<Greet>& h) { h.field(&Greet::times).minimum(1).maximum(3); }

struct Report {
    std::string status;
    int count;
};
BOOST_DESCRIBE_STRUCT(Report, (), (status, count))

}  // namespace tooltest

using namespace tooltest;

namespace {

class Tools : public ServerTest {
protected:
    void SetUp() override {
        server.tool("greet", "Greets someone", [](const Greet& in) {
            std::string out;
            for (int i = 0; i < in.times.value_or(1); ++i) out += "Hello, " + in.name + "! ";
            return out;
        });
        connect_and_initialize();
    }
};

}  // namespace

TEST_F(Tools, EmbeddedInitializeThenCall) {
    auto r = call_tool("greet", {{"name", "Ada"}, {"times", 2}});
    EXPECT_EQ(first_text(r), "Hello, Ada! Hello, Ada! ");
    EXPECT_FALSE(r.as_object().contains("isError"));
}

TEST_F(Tools, ATextResultIsNeverBuiltInAnEmbeddersStorage) {
    // A text result goes into the call's scratch arena, which is the message's own only when the
    // server parsed it: an embedder's value keeps its storage to itself.
    std::vector<boost::json::value> messages;
    const std::string name(200, 'x');  // a result too long for any inline string
    {
        unsigned char buffer[4096];
        boost::json::static_resource embedders(buffer, sizeof buffer);  // throws when full
        auto message = boost::json::parse(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet",)"
                                          R"("arguments":{"name":")" +
                                              name + R"(","times":3}}})",
                                          &embedders);
        messages = conn->send(message);
        ASSERT_FALSE(messages.empty());
        EXPECT_NE(messages.back().storage().get(), &embedders);
        EXPECT_NE(messages.back().at("result").storage().get(), &embedders);
    }
    // Read after the buffer is gone.
    const auto& text = messages.back().at("result").at("content").at(0).at("text").as_string();
    EXPECT_EQ(text.size(), 3 * (name.size() + 9));
    EXPECT_TRUE(std::string_view(text).starts_with("Hello, " + name + "! "));
}

TEST_F(Tools, InvalidArgumentsGiveAnIsErrorResultNamingTheField) {
    auto r = call_tool("greet", {{"name", 5}});
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_NE(first_text(r).find("/name"), std::string::npos) << first_text(r);

    r = call_tool("greet", {{"name", "x"}, {"times", 9}});
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_NE(first_text(r).find("/times"), std::string::npos) << first_text(r);

    r = call_tool("greet", {});
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_NE(first_text(r).find("name"), std::string::npos) << first_text(r);
}

TEST_F(Tools, MissingArgumentsMeanAnEmptyObject) {
    server.tool("hello", "No input", [] { return "hi"; });
    EXPECT_EQ(first_text(result("tools/call", {{"name", "hello"}})), "hi");
}

TEST_F(Tools, ProtocolMisuseIsAJsonRpcError) {
    EXPECT_EQ(error_code("tools/call", {{"name", "nope"}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("tools/call", {}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("tools/call", {{"name", 3}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("tools/call", {{"name", "greet"}, {"arguments", "x"}}), mcp::error_code::invalid_params);
}

TEST_F(Tools, ExceptionsBecomeIsErrorResults) {
    server.tool("fails", "Throws", []() -> std::string { throw std::runtime_error("disk on fire"); });
    server.tool("tool_error", "Throws ToolError", []() -> std::string { throw mcp::ToolError("bad input, try 3"); });
    server.tool("weird", "Throws an int", []() -> std::string { throw 42; });
    server.tool("protocol", "Throws mcp::Error", []() -> std::string { throw mcp::InvalidParams("no"); });

    auto r = call_tool("fails", {});
    EXPECT_EQ(r.at("isError"), true);
    EXPECT_EQ(first_text(r), "disk on fire");
    EXPECT_EQ(first_text(call_tool("tool_error", {})), "bad input, try 3");
    EXPECT_EQ(call_tool("weird", {}).at("isError"), true);
    EXPECT_EQ(error_code("tools/call", {{"name", "protocol"}}), mcp::error_code::invalid_params);
    // Still serving.
    EXPECT_EQ(first_text(call_tool("greet", {{"name", "B"}})), "Hello, B! ");
}

TEST_F(Tools, StructuredOutputFromDescribedStruct) {
    server.tool("report", "Reports", [] { return Report{"ok", 3}; });
    auto listed = result("tools/list");
    boost::json::value tool;
    for (auto& t : listed.at("tools").as_array()) {
        if (t.at("name") == "report") tool = t;
    }
    EXPECT_EQ(
        boost::json::serialize(tool.at("outputSchema")),
        R"({"type":"object","properties":{"status":{"type":"string"},"count":{"type":"integer"}},"required":["status","count"]})");
    auto r = call_tool("report", {});
    EXPECT_EQ(boost::json::serialize(r.at("structuredContent")), R"({"status":"ok","count":3})");
    EXPECT_EQ(boost::json::parse(first_text(r)), r.at("structuredContent"));
}

TEST_F(Tools, NonObjectReturnsAreWrapped) {
    server.tool("primes", "Lists primes", [] { return std::vector<int>{2, 3, 5}; });
    server.tool("answer", "A number", [] { return 42; });
    EXPECT_EQ(boost::json::serialize(call_tool("primes", {}).at("structuredContent")), R"({"result":[2,3,5]})");
    EXPECT_EQ(boost::json::serialize(call_tool("answer", {}).at("structuredContent")), R"({"result":42})");
    const auto listed = result("tools/list");
    for (const auto& t : listed.at("tools").as_array()) {
        if (t.at("name") == "primes") {
            EXPECT_EQ(
                boost::json::serialize(t.at("outputSchema")),
                R"({"type":"object","properties":{"result":{"type":"array","items":{"type":"integer"}}},"required":["result"]})");
        }
    }
}

TEST_F(Tools, ContentBlockReturns) {
    const std::vector<unsigned char> png{0x89, 'P', 'N', 'G'};
    server.tool("img", "Image", [png] { return mcp::image(png, "image/png"); });
    server.tool("link", "Link", [] { return mcp::resource_link("file:///a.txt", "a.txt"); });
    server.tool("many", "Several", [] {
        return std::vector<mcp::Content>{mcp::text("a"), mcp::embedded_text("test://r", "body"),
                                         mcp::audio_base64("UklGRg==", "audio/wav")};
    });
    server.tool("full", "Full result", [] {
        mcp::CallToolResult r;
        r.content.push_back(mcp::text("partial"));
        r.is_error = true;
        r.meta = {{"k", 1}};
        return r;
    });
    server.tool("nothing", "Void", [] {});

    EXPECT_EQ(boost::json::serialize(call_tool("img", {}).at("content")),
              R"([{"type":"image","data":"iVBORw==","mimeType":"image/png"}])");
    EXPECT_EQ(boost::json::serialize(call_tool("link", {}).at("content")),
              R"([{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"}])");
    EXPECT_EQ(
        boost::json::serialize(call_tool("many", {}).at("content")),
        R"([{"type":"text","text":"a"},{"type":"resource","resource":{"uri":"test://r","mimeType":"text/plain","text":"body"}},{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])");
    EXPECT_EQ(boost::json::serialize(call_tool("full", {})),
              R"({"content":[{"type":"text","text":"partial"}],"isError":true,"_meta":{"k":1}})");
    EXPECT_EQ(boost::json::serialize(call_tool("nothing", {})), R"({"content":[]})");
}

TEST_F(Tools, RegistrationRules) {
    auto noop = [] { return "x"; };
    for (const std::string& bad : std::vector<std::string>{"", std::string(65, 'a'), "has space", "a/b", "é", "a:b"}) {
        EXPECT_THROW(server.tool(bad, "d", noop), std::invalid_argument) << bad;
    }
    EXPECT_NO_THROW(server.tool(std::string(64, 'a'), "d", noop));
    EXPECT_NO_THROW(server.tool("A-z_0.9", "d", noop));
    EXPECT_THROW(server.tool("greet", "again", noop), std::invalid_argument);
    EXPECT_THROW(server.tool("nodesc", "", noop), std::invalid_argument);
    EXPECT_THROW(
        server.tool({.name = "arr", .description = "d", .input_schema = boost::json::object{{"type", "array"}}},
                    [](const boost::json::object&) { return "x"; }),
        std::invalid_argument);
    EXPECT_THROW(server.tool({.name = "badschema",
                              .description = "d",
                              .input_schema = boost::json::object{{"type", "object"}, {"minProperties", "two"}}},
                             [](const boost::json::object&) { return "x"; }),
                 std::invalid_argument);
}

TEST_F(Tools, RawSchemaIsAdvertisedVerbatimAndEnforced) {
    const auto schema = boost::json::parse(
        R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","x-vendor":{"a":1},
            "properties":{"n":{"type":"integer","minimum":0}},"required":["n"],"additionalProperties":false})");
    server.tool({.name = "raw", .description = "Raw schema", .input_schema = schema.as_object()},
                [](const boost::json::object& args) { return std::to_string(args.at("n").as_int64() * 2); });
    const auto listed = result("tools/list");
    for (const auto& t : listed.at("tools").as_array()) {
        if (t.at("name") == "raw") {
            EXPECT_EQ(t.at("inputSchema"), schema);
        }
    }
    EXPECT_EQ(first_text(call_tool("raw", {{"n", 21}})), "42");
    EXPECT_EQ(call_tool("raw", {{"n", -1}}).at("isError"), true);
    EXPECT_EQ(call_tool("raw", {{"n", 1}, {"extra", 1}}).at("isError"), true);
}

TEST_F(Tools, MetadataOnTheList) {
    server.tool({.name = "annotated",
                 .description = "d",
                 .title = "Annotated",
                 .annotations = {.read_only_hint = true, .destructive_hint = false},
                 .icons = {{.src = "https://example.com/i.png", .mime_type = "image/png", .sizes = {"48x48"}}},
                 .meta = {{"vendor/key", "v"}}},
                [] { return "x"; });
    const auto listed = result("tools/list");
    for (const auto& t : listed.at("tools").as_array()) {
        if (t.at("name") != "annotated") continue;
        EXPECT_EQ(t.at("title"), "Annotated");
        EXPECT_EQ(boost::json::serialize(t.at("annotations")), R"({"readOnlyHint":true,"destructiveHint":false})");
        EXPECT_EQ(boost::json::serialize(t.at("icons")),
                  R"([{"src":"https://example.com/i.png","mimeType":"image/png","sizes":["48x48"]}])");
        EXPECT_EQ(t.at("_meta").at("vendor/key"), "v");
    }
}

class Paging : public ServerTest {
protected:
    Paging()
        : ServerTest([] {
              mcp::ServerOptions o;
              o.page_size = 10;
              return o;
          }()) {}
    void SetUp() override {
        for (int i = 0; i < 25; ++i) {
            char name[16];
            std::snprintf(name, sizeof name, "tool%02d", i);
            server.tool(name, "numbered", [] { return "x"; });
        }
        server.prompt("p", "a prompt", [] { return "x"; });
        connect_and_initialize();
    }

    std::vector<std::string> all_names() {
        std::vector<std::string> names;
        boost::json::object params;
        for (int page = 0; page < 10; ++page) {
            auto r = result("tools/list", params);
            for (auto& t : r.at("tools").as_array()) names.emplace_back(t.at("name").as_string());
            if (!r.as_object().contains("nextCursor")) break;
            params["cursor"] = r.at("nextCursor");
        }
        return names;
    }
};

TEST_F(Paging, PagesAreDeterministicAndComplete) {
    auto first = result("tools/list");
    EXPECT_EQ(first.at("tools").as_array().size(), 10u);
    auto names = all_names();
    ASSERT_EQ(names.size(), 25u);
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(all_names(), names);
}

TEST_F(Paging, AnEmbeddersMessageStorageIsNeverUsedForTheResponse) {
    // Pages are built in the arena of a message the server parsed itself; a value handed in by an
    // embedder lives in the embedder's storage, which the response must neither use nor outlive.
    std::vector<boost::json::value> messages;
    {
        unsigned char buffer[4096];
        boost::json::static_resource embedders(buffer, sizeof buffer);  // throws when full
        auto message = boost::json::parse(R"({"jsonrpc":"2.0","id":99,"method":"tools/list"})", &embedders);
        messages = conn->send(message);
        ASSERT_FALSE(messages.empty());
        EXPECT_NE(messages.back().storage().get(), &embedders);
    }
    EXPECT_EQ(messages.back().at("result").at("tools").as_array().size(), 10u);  // read after the buffer is gone

    // Text goes through the server's own parser and arena: the same page.
    struct Collect : mcp::CallSink {
        std::optional<boost::json::value> response;
        bool send(boost::json::value) override { return true; }
        void complete(std::optional<boost::json::value> r) override {
            response = std::move(r);
        }  // lists answer at once
    };
    auto sink = std::make_shared<Collect>();
    server.handle(std::string_view(R"({"jsonrpc":"2.0","id":100,"method":"tools/list"})"),
                  mcp::Inbound{conn->session(), {}}, sink);
    ASSERT_TRUE(sink->response.has_value());
    EXPECT_EQ(sink->response->at("result").at("tools").as_array().size(), 10u);
}

TEST_F(Paging, ForgedOrForeignCursorsAreRefused) {
    auto cursor = std::string(result("tools/list").at("nextCursor").as_string());
    auto forged = cursor;
    forged[forged.size() / 2] = forged[forged.size() / 2] == 'A' ? 'B' : 'A';
    EXPECT_EQ(error_code("tools/list", {{"cursor", forged}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("tools/list", {{"cursor", "not-a-cursor!"}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("tools/list", {{"cursor", 7}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("prompts/list", {{"cursor", cursor}}), mcp::error_code::invalid_params);
}

TEST_F(Paging, ChangesBetweenPagesNeitherRepeatNorSkip) {
    auto first = result("tools/list");
    server.tool("tool00a", "inserted before the cursor", [] { return "x"; });
    EXPECT_TRUE(server.remove_tool("tool15"));
    auto second = result("tools/list", {{"cursor", first.at("nextCursor")}});
    EXPECT_EQ(second.at("tools").at(0).at("name"), "tool10");
    std::vector<std::string> rest;
    boost::json::object params{{"cursor", second.at("nextCursor")}};
    auto third = result("tools/list", params);
    for (auto& t : third.at("tools").as_array()) rest.emplace_back(t.at("name").as_string());
    EXPECT_EQ(rest.front(), "tool21");
    EXPECT_FALSE(third.as_object().contains("nextCursor"));
}

namespace {

// A tool's structured result checked against its outputSchema (ServerOptions::validate_tool_output).
class OutputSchema : public ServerTest {
protected:
    explicit OutputSchema(bool validate = true) : ServerTest(options(validate)) {}

    static mcp::ServerOptions options(bool validate) {
        mcp::ServerOptions o;
        o.validate_tool_output = validate;
        return o;
    }

    void SetUp() override {
        server.tool("report", "Generated schema", [] { return Report{"ok", 3}; });
        const auto schema = boost::json::parse(R"({"type":"object","properties":{"status":{"type":"string"},)"
                                               R"("items":{"type":"array","items":{"type":"object","properties":)"
                                               R"({"count":{"type":"integer","minimum":0}},"required":["count"]}}},)"
                                               R"("required":["status","items"]})")
                                .as_object();
        server.tool({.name = "handwritten", .description = "Hand-written schema", .output_schema = schema},
                    [](const boost::json::object& args) {
                        return mcp::CallToolResult{.content = {mcp::text("see structured")},
                                                   .structured_content = args.at("give")};
                    });
        server.tool({.name = "unstructured", .description = "Declares a schema, returns text", .output_schema = schema},
                    [] { return "plain text"; });
        server.tool({.name = "failing", .description = "An error result", .output_schema = schema},
                    [] { return mcp::CallToolResult{.content = {mcp::text("broken")}, .is_error = true}; });
        connect_and_initialize();
    }

    boost::json::value give(boost::json::value structured) {
        return call_tool("handwritten", {{"give", std::move(structured)}});
    }
};

class OutputSchemaOff : public OutputSchema {
protected:
    OutputSchemaOff() : OutputSchema(false) {}
};

bool is_error(const boost::json::value& r) {
    const auto* e = r.as_object().if_contains("isError");
    return e != nullptr && e->as_bool();
}

}  // namespace

TEST_F(OutputSchema, AConformingResultPasses) {
    auto r = call_tool("report", {});
    EXPECT_FALSE(is_error(r));
    EXPECT_EQ(r.at("structuredContent").at("count"), 3);
    r = give(boost::json::parse(R"({"status":"ok","items":[{"count":1},{"count":0}]})"));
    EXPECT_FALSE(is_error(r)) << boost::json::serialize(r);
}

TEST_F(OutputSchema, AMismatchIsAnErrorResultNamingThePath) {
    auto r = give(boost::json::parse(R"({"status":"ok","items":[{"count":1},{"count":-2}]})"));
    ASSERT_TRUE(is_error(r)) << boost::json::serialize(r);
    EXPECT_NE(first_text(r).find("/items/1/count"), std::string::npos) << first_text(r);
    EXPECT_FALSE(r.as_object().contains("structuredContent"));  // the bad data does not reach the client

    r = give(boost::json::parse(R"({"status":7,"items":[]})"));
    ASSERT_TRUE(is_error(r));
    EXPECT_NE(first_text(r).find("/status"), std::string::npos) << first_text(r);
    r = give(boost::json::parse(R"({"status":"ok"})"));
    ASSERT_TRUE(is_error(r));
    EXPECT_NE(first_text(r).find("items"), std::string::npos) << first_text(r);
    EXPECT_TRUE(is_error(give(boost::json::array{1, 2})));
    EXPECT_TRUE(is_error(give(nullptr)));
}

TEST_F(OutputSchema, ADeclaredSchemaNeedsStructuredContentButErrorsAreExempt) {
    auto r = call_tool("unstructured", {});
    ASSERT_TRUE(is_error(r));
    EXPECT_NE(first_text(r).find("no structuredContent"), std::string::npos) << first_text(r);
    r = call_tool("failing", {});
    ASSERT_TRUE(is_error(r));
    EXPECT_EQ(first_text(r), "broken");
}

TEST_F(OutputSchema, AMalformedOutputSchemaIsRefusedAtRegistration) {
    EXPECT_THROW(server.tool({.name = "bad",
                              .description = "bad",
                              .output_schema = boost::json::object{{"type", "object"}, {"minProperties", "x"}}},
                             [] { return "x"; }),
                 std::invalid_argument);
}

TEST_F(OutputSchemaOff, TheOptionTurnsTheCheckOff) {
    auto r = give(boost::json::parse(R"({"status":7})"));
    EXPECT_FALSE(is_error(r)) << boost::json::serialize(r);
    EXPECT_EQ(r.at("structuredContent").at("status"), 7);
    EXPECT_FALSE(is_error(call_tool("unstructured", {})));
}
