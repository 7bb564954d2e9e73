// What the request's SERVER span says of its connection and its parent (docs/adr/0030-tracing.md,
// decision 15): network.transport `pipe` on stdio, what a transport put in Inbound::network, and
// IS_REMOTE unset when the transport recorded the parent (Inbound::trace.parent_local). The server
// exports OTLP JSON to a receiver of the test's own.
#include "http_test_server.hpp"
#include "otlp_json.hpp"

#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <mutex>
#include <thread>

namespace {

using mcp::test::string_attribute;

const std::string kTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string kCallerSpan = "00f067aa0ba902b7";
constexpr std::int64_t kSampled = 0x01;
constexpr std::int64_t kHasIsRemote = 0x100;
constexpr std::int64_t kIsRemote = 0x200;

std::string initialize(std::string_view id) {
    return R"({"jsonrpc":"2.0","id":")" + std::string(id) +
           R"(","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},)"
           R"("clientInfo":{"name":"gtest","version":"1"},"_meta":{"traceparent":"00-)" +
           kTraceId + "-" + kCallerSpan + R"(-01"}}})";
}

// An integer attribute (proto3 JSON writes int64 as a string); "" when it has none of that key.
std::string int_attribute(const boost::json::object& span, std::string_view key) {
    for (const auto& a : span.at("attributes").as_array()) {
        if (a.at("key").as_string() != key) continue;
        if (const auto* n = a.at("value").as_object().if_contains("intValue")) return std::string(n->as_string());
    }
    return {};
}

// The response, inline.
class Collect final : public mcp::CallSink {
public:
    bool send(boost::json::value) override { return true; }
    void complete(std::optional<boost::json::value> r) override { response = std::move(r); }
    std::optional<boost::json::value> response;
};

class SpanNetwork : public ::testing::Test {
protected:
    SpanNetwork()
        : receiver([this](mcp::test::Peer& peer) {
              while (auto request = peer.read_request()) {
                  auto received = mcp::test::otlp_json_spans(request->body);
                  std::lock_guard lock(mutex);
                  spans.insert(spans.end(), received.begin(), received.end());
                  peer.write(mcp::test::http_response(200, "{}", "Content-Type: application/json\r\n"));
              }
          }),
          server({.name = "traced", .version = "1.0"}, options()) {}

    mcp::ServerOptions options() {
        mcp::ServerOptions o;
        o.tracing.endpoint = receiver.url("/v1/traces");
        o.tracing.protocol = mcp::telemetry::OtlpProtocol::http_json;
        return o;
    }

    // The SERVER span of the request `id`, once the server flushed it.
    boost::json::object span_of(std::string_view id) {
        EXPECT_TRUE(server.flush_traces(std::chrono::seconds(5)));
        std::lock_guard lock(mutex);
        for (const auto& s : spans)
            if (string_attribute(s, "jsonrpc.request.id") == id) return s;
        ADD_FAILURE() << "no span for " << id;
        return {};
    }

    // Initializes a session of its own through Server::handle with `inbound`.
    void handle(std::string_view id, mcp::Inbound inbound) {
        auto sink = std::make_shared<Collect>();
        inbound.session = server.open_session(sink);
        server.handle(initialize(id), inbound, sink);
        ASSERT_TRUE(sink->response && sink->response->as_object().contains("result"));
    }

    std::mutex mutex;
    std::vector<boost::json::object> spans;
    mcp::test::TestServer receiver;
    mcp::Server server;
};

}  // namespace

TEST_F(SpanNetwork, AStdioRequestIsOverAPipeWithNoAddress) {
    int in[2];
    int out[2];
    ASSERT_EQ(::pipe(in), 0);
    ASSERT_EQ(::pipe(out), 0);
    std::thread serving([&] { mcp::serve_stdio(server, {.input_fd = in[0], .output_fd = out[1]}); });
    const auto line = initialize("stdio-1") + "\n";
    ASSERT_EQ(::write(in[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));
    ::close(in[1]);  // the client is done: serve_stdio answers and returns
    serving.join();
    ::close(in[0]);
    ::close(out[1]);
    ::close(out[0]);

    const auto span = span_of("stdio-1");
    EXPECT_EQ(string_attribute(span, "network.transport"), "pipe");
    for (const auto* key : {"network.protocol.name", "network.protocol.version", "client.address"})
        EXPECT_EQ(string_attribute(span, key), "") << key;
    EXPECT_EQ(int_attribute(span, "client.port"), "");
    EXPECT_EQ(span.at("flags").as_int64(), kSampled | kHasIsRemote | kIsRemote) << "the caller is another process";
}

TEST_F(SpanNetwork, WhatTheTransportKnowsOfTheConnectionIsRecorded) {
    mcp::Inbound inbound;
    inbound.network = {.transport = "tcp",
                       .protocol_name = "http",
                       .protocol_version = "1.1",
                       .client_address = "192.0.2.7",
                       .client_port = 50123};
    handle("tcp-1", inbound);
    handle("in-process-1", {});

    const auto tcp = span_of("tcp-1");
    EXPECT_EQ(string_attribute(tcp, "network.transport"), "tcp");
    EXPECT_EQ(string_attribute(tcp, "network.protocol.name"), "http");
    EXPECT_EQ(string_attribute(tcp, "network.protocol.version"), "1.1");
    EXPECT_EQ(string_attribute(tcp, "client.address"), "192.0.2.7");
    EXPECT_EQ(int_attribute(tcp, "client.port"), "50123");
    const auto in_process = span_of("in-process-1");
    EXPECT_EQ(string_attribute(in_process, "network.transport"), "") << "no network in-process";
    EXPECT_EQ(int_attribute(in_process, "client.port"), "");
}

// The traceparent header the HTTP transport rewrote after its `verify token` span names a span of
// this process; one a caller sent names another process's.
TEST_F(SpanNetwork, AParentTheTransportRecordedIsNotRemote) {
    const std::string verify_span = "1111111111111111";
    mcp::Inbound handed_down;
    handed_down.trace.traceparent = "00-" + kTraceId + "-" + verify_span + "-01";
    handed_down.trace.parent_local = true;
    handle("local-1", handed_down);
    mcp::Inbound from_caller;
    from_caller.trace.traceparent = "00-" + kTraceId + "-" + verify_span + "-01";
    handle("remote-1", from_caller);

    const auto local = span_of("local-1");
    EXPECT_EQ(local.at("parentSpanId").as_string(), verify_span);
    EXPECT_EQ(local.at("flags").as_int64(), kSampled | kHasIsRemote);
    const auto remote = span_of("remote-1");
    EXPECT_EQ(remote.at("parentSpanId").as_string(), verify_span);
    EXPECT_EQ(remote.at("flags").as_int64(), kSampled | kHasIsRemote | kIsRemote);
}
