#pragma once
// A server reached through LocalConnection: no transport, real core.
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <memory>

namespace testing_support {

inline boost::json::value request(const boost::json::value& id, std::string_view method,
                                  boost::json::object params = {}) {
    boost::json::object m{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.empty()) m["params"] = std::move(params);
    return m;
}

inline boost::json::value notification(std::string_view method, boost::json::object params = {}) {
    return boost::json::object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

class ServerTest : public ::testing::Test {
protected:
    explicit ServerTest(mcp::ServerOptions options = {})
        : server({.name = "test", .version = "1.0"}, std::move(options)) {}

    // `who`: the principal the connection serves (null: anonymous).
    void connect_and_initialize(std::string_view version = "2025-11-25",
                                std::shared_ptr<const mcp::Principal> who = nullptr) {
        conn = std::make_unique<mcp::LocalConnection>(server, std::move(who));
        auto reply = call("initialize", {{"protocolVersion", version},
                                         {"capabilities", boost::json::object()},
                                         {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}});
        ASSERT_TRUE(reply.as_object().contains("result")) << boost::json::serialize(reply);
        conn->send(notification("notifications/initialized"));
    }

    // Sends a request and returns its response (the last message produced).
    boost::json::value call(std::string_view method, boost::json::object params = {}) {
        if (!conn) conn = std::make_unique<mcp::LocalConnection>(server);
        auto messages = conn->send(request(++next_id_, method, std::move(params)));
        EXPECT_FALSE(messages.empty());
        return messages.empty() ? boost::json::value() : messages.back();
    }

    boost::json::value result(std::string_view method, boost::json::object params = {}) {
        auto reply = call(method, std::move(params));
        EXPECT_TRUE(reply.is_object() && reply.as_object().contains("result")) << boost::json::serialize(reply);
        return reply.is_object() && reply.as_object().contains("result") ? reply.at("result") : boost::json::value();
    }

    int error_code(std::string_view method, boost::json::object params = {}) {
        auto reply = call(method, std::move(params));
        if (!reply.is_object() || !reply.as_object().contains("error")) {
            ADD_FAILURE() << "expected an error: " << boost::json::serialize(reply);
            return 0;
        }
        return static_cast<int>(reply.at("error").at("code").as_int64());
    }

    boost::json::value call_tool(std::string_view name, boost::json::object arguments) {
        return result("tools/call", {{"name", name}, {"arguments", std::move(arguments)}});
    }

    static std::string first_text(const boost::json::value& result) {
        return std::string(result.at("content").at(0).at("text").as_string());
    }

    mcp::Server server;
    std::unique_ptr<mcp::LocalConnection> conn;

private:
    std::int64_t next_id_ = 0;
};

}  // namespace testing_support
