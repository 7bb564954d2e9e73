// MCP Apps (io.modelcontextprotocol/ui): views as ui:// resources with the app MIME type and their
// _meta.ui, tools pointing to them, the extension declared, and the client's declaration read back.
#include "server_fixture.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

using namespace testing_support;

namespace {

constexpr const char* kHtml = "<!DOCTYPE html><html><body><p id=x>view</p></body></html>";

class Apps : public ServerTest {
protected:
    void SetUp() override {
        apps = std::make_unique<mcp::Apps>(server);
        apps->add({.uri = "ui://t/chart",
                   .name = "Chart",
                   .description = "A chart",
                   .html = kHtml,
                   .csp = {{"connectDomains", boost::json::array{"https://api.example.com"}}},
                   .prefers_border = false});
        server.tool({.name = "chart", .description = "Draws", .meta = apps->tool_meta("ui://t/chart")},
                    [](mcp::ToolContext& ctx) { return mcp::client_renders_apps(ctx.exchange()) ? "app" : "text"; });
    }
    std::unique_ptr<mcp::Apps> apps;
};

}  // namespace

TEST_F(Apps, TheViewIsAResourceWithTheAppProfileAndItsSandboxMeta) {
    connect_and_initialize();
    const auto listed = result("resources/list").at("resources").at(0);
    EXPECT_EQ(listed.at("uri"), "ui://t/chart");
    EXPECT_EQ(listed.at("mimeType"), "text/html;profile=mcp-app");
    const auto read = result("resources/read", {{"uri", "ui://t/chart"}}).at("contents").at(0);
    EXPECT_EQ(read.at("mimeType"), "text/html;profile=mcp-app");
    EXPECT_EQ(read.at("text"), kHtml);
    EXPECT_EQ(read.at("_meta").at("ui"),
              boost::json::parse(R"({"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":false})"));
}

TEST_F(Apps, TheToolPointsToItsViewAndTheExtensionIsDeclared) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    auto reply = call("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", boost::json::object()}});
    EXPECT_EQ(reply.at("result").at("capabilities").at("extensions").at("io.modelcontextprotocol/ui"),
              boost::json::object());
    conn->send(notification("notifications/initialized"));
    const auto tool = result("tools/list").at("tools").at(0);
    EXPECT_EQ(tool.at("_meta"),
              boost::json::parse(R"({"ui":{"resourceUri":"ui://t/chart","visibility":["model","app"]}})"));
    EXPECT_EQ(apps->tool_meta("ui://t/chart", mcp::AppVisibility::app_only).at("ui").at("visibility"),
              boost::json::parse(R"(["app"])"));
    EXPECT_EQ(apps->tool_meta("ui://t/chart", mcp::AppVisibility::model_only).at("ui").at("visibility"),
              boost::json::parse(R"(["model"])"));
    EXPECT_EQ(first_text(call_tool("chart", {})), "text");  // this client declared no app support
}

TEST_F(Apps, TheClientsDeclarationIsReadPerRequest) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    auto caps = [](boost::json::value types) {
        return boost::json::object{{"extensions", {{"io.modelcontextprotocol/ui", {{"mimeTypes", std::move(types)}}}}}};
    };
    auto ask = [&](boost::json::object c) {
        boost::json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                 {"io.modelcontextprotocol/clientCapabilities", std::move(c)}};
        return first_text(result("tools/call", {{"name", "chart"}, {"_meta", std::move(meta)}}));
    };
    EXPECT_EQ(ask(caps(boost::json::array{"text/html;profile=mcp-app"})), "app");
    EXPECT_EQ(ask(caps(boost::json::array{"text/html"})), "text");
    EXPECT_EQ(ask(caps("text/html;profile=mcp-app")), "text");  // not an array
    EXPECT_EQ(ask({}), "text");
}

TEST_F(Apps, MalformedViewsAreRefused) {
    auto refused = [&](mcp::AppResource app) { EXPECT_THROW(apps->add(std::move(app)), std::invalid_argument); };
    refused({.uri = "https://x/chart", .name = "n", .html = kHtml});
    refused({.uri = "ui://", .name = "n", .html = kHtml});
    refused({.uri = "ui://t/a", .name = "", .html = kHtml});
    refused({.uri = "ui://t/a", .name = "n", .html = ""});
    refused({.uri = "ui://t/a", .name = "n", .html = kHtml, .csp = {{"scriptDomains", boost::json::array()}}});
    refused({.uri = "ui://t/a", .name = "n", .html = kHtml, .csp = {{"connectDomains", "https://x"}}});
    refused({.uri = "ui://t/a", .name = "n", .html = kHtml, .csp = {{"connectDomains", boost::json::array{1}}}});
    refused({.uri = "ui://t/chart", .name = "again", .html = kHtml});
    EXPECT_THROW(apps->tool_meta("ui://t/missing"), std::invalid_argument);
    EXPECT_THROW(mcp::Apps twice(server), std::invalid_argument);
}
