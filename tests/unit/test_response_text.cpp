// Successful responses written straight as text (server/response_text.hpp) against the value path:
// a sink that takes text must receive exactly the bytes the value path serializes to, on both eras,
// for results that get cache hints, results the text path must leave to the value path, and ids
// of both kinds.
#include "server_fixture.hpp"

#include <boost/json/serialize.hpp>

#include <future>

using namespace testing_support;

namespace {

// Records how the core completed: as text, or as a value.
class RecordingSink final : public mcp::CallSink {
public:
    explicit RecordingSink(bool takes_text) : takes_text_(takes_text) {}
    bool send(boost::json::value) override { return true; }
    void complete(std::optional<boost::json::value> response) override {
        if (response) value = boost::json::serialize(*response);
        done.set_value();
    }
    bool takes_text() const override { return takes_text_; }
    void complete_text(std::string response) override {
        text = std::move(response);
        done.set_value();
    }
    std::optional<std::string> text;
    std::optional<std::string> value;
    std::promise<void> done;

private:
    bool takes_text_;
};

boost::json::object envelope() {
    return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientInfo", {{"name", "gtest"}, {"version", "1"}}},
            {"io.modelcontextprotocol/clientCapabilities", boost::json::object()}};
}

class ResponseText : public ServerTest {
protected:
    explicit ResponseText(mcp::ServerOptions options = {}) : ServerTest(std::move(options)) {}

    void SetUp() override {
        server.tool("echo", "Echo", [](const boost::json::object& a) { return std::string(a.at("text").as_string()); });
        server.tool("fails", "Always fails", []() -> std::string { throw std::runtime_error("it broke \"badly\""); });
        server.tool("annotated", "A result with its own _meta", [] {
            mcp::CallToolResult result;
            result.content.push_back(mcp::TextContent{.text = "x"});
            result.meta["mine"] = 1;
            return result;
        });
        server.resource("test://r", {.mime_type = "text/plain"}, [] { return "r\u00e9sum\u00e9\n"; });
    }

    // The same request to a sink that takes text and to one that does not.
    std::pair<RecordingSink*, std::string> both(const boost::json::value& message,
                                                const std::shared_ptr<mcp::Session>& session = nullptr) {
        // One after the other: a session refuses a second request with the id of one in flight.
        auto text_sink = std::make_shared<RecordingSink>(true);
        auto value_sink = std::make_shared<RecordingSink>(false);
        server.handle(message, mcp::Inbound{session}, text_sink);
        text_sink->done.get_future().wait();
        server.handle(message, mcp::Inbound{session}, value_sink);
        value_sink->done.get_future().wait();
        EXPECT_FALSE(value_sink->text.has_value());
        EXPECT_TRUE(value_sink->value.has_value());
        kept_.push_back(text_sink);
        return {text_sink.get(), value_sink->value.value_or("")};
    }

    static boost::json::value modern(const boost::json::value& id, std::string_view method,
                                     boost::json::object params = {}) {
        params["_meta"] = envelope();
        return request(id, method, std::move(params));
    }

private:
    std::vector<std::shared_ptr<RecordingSink>> kept_;
};

TEST_F(ResponseText, StatelessResultsAreTheValuePathsBytes) {
    const boost::json::value requests[] = {
        modern(1, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "a \"quoted\" \u00e9 \x01 line"}}}}),
        modern("req-\u00e9\"7", "tools/call", {{"name", "echo"}, {"arguments", {{"text", ""}}}}),
        modern(-9007199254740991, "tools/call", {{"name", "fails"}, {"arguments", boost::json::object()}}),
        modern(2, "tools/list"),
        modern(3, "resources/read", {{"uri", "test://r"}}),
        modern(4, "resources/list"),
        modern(5, "server/discover"),
    };
    for (const auto& message : requests) {
        auto [text_sink, value_text] = both(message);
        ASSERT_TRUE(text_sink->text.has_value()) << boost::json::serialize(message) << " -> " << value_text;
        EXPECT_EQ(*text_sink->text, value_text);
        EXPECT_NE(value_text.find(R"("io.modelcontextprotocol/serverInfo":{"name":"test","version":"1.0"})"),
                  std::string::npos)
            << value_text;
    }
}

TEST_F(ResponseText, CacheHintsAreWrittenForListsAndReads) {
    auto [list_sink, list_value] = both(modern(1, "tools/list"));
    ASSERT_TRUE(list_sink->text.has_value());
    EXPECT_NE(list_sink->text->find(R"("ttlMs":)"), std::string::npos) << *list_sink->text;
    EXPECT_NE(list_sink->text->find(R"("cacheScope":)"), std::string::npos) << *list_sink->text;
    auto [call_sink, call_value] = both(modern(2, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "t"}}}}));
    ASSERT_TRUE(call_sink->text.has_value());
    EXPECT_EQ(call_sink->text->find("ttlMs"), std::string::npos) << *call_sink->text;
}

TEST_F(ResponseText, AResultWithItsOwnMetaTakesTheValuePath) {
    auto [text_sink, value_text] = both(modern(1, "tools/call", {{"name", "annotated"}}));
    EXPECT_FALSE(text_sink->text.has_value());
    ASSERT_TRUE(text_sink->value.has_value());
    EXPECT_EQ(*text_sink->value, value_text);
    EXPECT_NE(value_text.find(R"("mine":1)"), std::string::npos) << value_text;
    EXPECT_NE(value_text.find("serverInfo"), std::string::npos) << value_text;
}

TEST_F(ResponseText, ErrorsTakeTheValuePath) {
    auto [text_sink, value_text] = both(modern(1, "tools/call", {{"name", "nope"}}));
    EXPECT_FALSE(text_sink->text.has_value());
    ASSERT_TRUE(text_sink->value.has_value());
    EXPECT_EQ(*text_sink->value, value_text);
    EXPECT_NE(value_text.find(R"("error")"), std::string::npos) << value_text;
}

TEST_F(ResponseText, SessionResultsAreTheValuePathsBytesWithoutStamps) {
    connect_and_initialize();
    const boost::json::value requests[] = {
        request(11, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "\u2028 and \\ back"}}}}),
        request("s", "tools/list"),
        request(12, "resources/read", {{"uri", "test://r"}}),
        request(13, "tools/call", {{"name", "annotated"}}),
        request(14, "ping"),
    };
    for (const auto& message : requests) {
        auto [text_sink, value_text] = both(message, conn->session());
        ASSERT_TRUE(text_sink->text.has_value()) << boost::json::serialize(message);
        EXPECT_EQ(*text_sink->text, value_text);
        EXPECT_EQ(value_text.find("serverInfo"), std::string::npos) << value_text;
        EXPECT_EQ(value_text.find("resultType"), std::string::npos) << value_text;
    }
}

class PrivateCacheResponseText : public ResponseText {
protected:
    PrivateCacheResponseText() : ResponseText(private_cache()) {}
    static mcp::ServerOptions private_cache() {
        mcp::ServerOptions options;
        options.cache.public_scope = false;
        options.cache.list_ttl = std::chrono::milliseconds(1234567);
        return options;
    }
};

TEST_F(PrivateCacheResponseText, TheConfiguredHintsAreWritten) {
    auto [text_sink, value_text] = both(modern(1, "tools/list"));
    ASSERT_TRUE(text_sink->text.has_value());
    EXPECT_EQ(*text_sink->text, value_text);
    EXPECT_NE(value_text.find(R"("ttlMs":1234567,"cacheScope":"private")"), std::string::npos) << value_text;
}

}  // namespace
