// mcp::Client's CLIENT spans (docs/adr/0030-tracing.md): an in-process server whose handler
// reads the trace context it was called in, and an OTLP/HTTP receiver (JSON) that keeps what the
// client exports.
#include "http_test_server.hpp"
#include "otlp_json.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/request_context.hpp>
#include <mcp/server/server.hpp>

#include <boost/describe.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>

namespace {

using mcp::test::string_attribute;

struct EchoIn {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoIn, (), (text))

const std::string kTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string kCallerSpan = "00f067aa0ba902b7";

// Every span the receiver was sent, as JSON objects.
struct Received {
    std::mutex mutex;
    std::vector<boost::json::object> spans;
};

class ClientTracing : public ::testing::TestWithParam<std::string> {
protected:
    ClientTracing()
        : receiver([this](mcp::test::Peer& peer) {
              while (auto request = peer.read_request()) {
                  auto received_spans = mcp::test::otlp_json_spans(request->body);
                  std::lock_guard lock(received.mutex);
                  received.spans.insert(received.spans.end(), received_spans.begin(), received_spans.end());
                  peer.write(mcp::test::http_response(200, "{}", "Content-Type: application/json\r\n"));
              }
          }),
          server({.name = "traced-server", .version = "1.0"}) {
        server.tool("echo", "Returns its text", [this](const EchoIn& in) {
            std::lock_guard lock(seen_mutex);
            seen_traceparent = mcp::current_trace().traceparent;
            return in.text;
        });
    }

    mcp::ClientOptions traced_options(double ratio = 1.0) {
        mcp::ClientOptions options;
        options.protocol_version = GetParam();
        options.tracing.endpoint = receiver.url("/v1/traces");
        options.tracing.protocol = mcp::telemetry::OtlpProtocol::http_json;
        options.tracing.sampling_ratio = ratio;
        return options;
    }

    // The client's spans once it closed (close() flushes them).
    std::vector<boost::json::object> spans_named(std::string_view name) {
        std::lock_guard lock(received.mutex);
        std::vector<boost::json::object> out;
        for (const auto& span : received.spans)
            if (span.at("name").as_string() == name) out.push_back(span);
        return out;
    }

    std::string seen() {
        std::lock_guard lock(seen_mutex);
        return seen_traceparent;
    }

    Received received;
    mcp::test::TestServer receiver;
    mcp::Server server;
    std::mutex seen_mutex;
    std::string seen_traceparent;
};

}  // namespace

TEST_P(ClientTracing, ACallIsAClientSpanUnderTheCallersTraceAndTheServerContinuesIt) {
    {
        mcp::Client client(mcp::in_process(server), traced_options());
        client.connect();
        mcp::CallOptions call;
        call.trace = {"00-" + kTraceId + "-" + kCallerSpan + "-01", "vendor=3"};
        EXPECT_FALSE(client.call_tool("echo", {{"text", "hi"}}, call).is_error);
        client.close();
    }
    const auto spans = spans_named("tools/call echo");
    ASSERT_EQ(spans.size(), 1U);
    const auto& span = spans[0];
    EXPECT_EQ(span.at("kind"), 3);  // SPAN_KIND_CLIENT
    EXPECT_EQ(span.at("traceId").as_string(), kTraceId);
    EXPECT_EQ(span.at("parentSpanId").as_string(), kCallerSpan);
    EXPECT_EQ(span.at("traceState"), "vendor=3");
    EXPECT_EQ(string_attribute(span, "mcp.method.name"), "tools/call");
    EXPECT_EQ(string_attribute(span, "gen_ai.tool.name"), "echo");
    EXPECT_FALSE(string_attribute(span, "mcp.protocol.version").empty());
    EXPECT_FALSE(span.contains("status"));
    // The server's handler ran under the client's span: same trace, the client span as parent.
    EXPECT_EQ(seen(), "00-" + kTraceId + "-" + std::string(span.at("spanId").as_string()) + "-01");
}

TEST_P(ClientTracing, AFailedCallRecordsTheServersCode) {
    {
        mcp::Client client(mcp::in_process(server), traced_options());
        client.connect();
        EXPECT_THROW(client.request("tools/call", {{"name", "no_such_tool"}, {"arguments", boost::json::object()}}),
                     mcp::Error);
        client.close();
    }
    const auto spans = spans_named("tools/call no_such_tool");
    ASSERT_EQ(spans.size(), 1U);
    EXPECT_EQ(spans[0].at("status").at("code"), 2);
    EXPECT_EQ(string_attribute(spans[0], "error.type"), "-32602");  // Invalid params: an unknown tool
    EXPECT_FALSE(spans[0].contains("parentSpanId"));                // no caller's trace: a trace of its own
}

TEST_P(ClientTracing, AnUnsampledCallIsNotExportedButItsDecisionReachesTheServer) {
    {
        mcp::Client client(mcp::in_process(server), traced_options(0.0));
        client.connect();
        client.call_tool("echo", {{"text", "quiet"}});
        client.close();
    }
    EXPECT_TRUE(spans_named("tools/call echo").empty());
    const auto traceparent = seen();
    ASSERT_EQ(traceparent.size(), 55U);
    EXPECT_TRUE(traceparent.ends_with("-00")) << traceparent;
}

TEST_P(ClientTracing, AClientWithoutTracingPassesTheCallersTraceOnAsItIs) {
    mcp::ClientOptions options;
    options.protocol_version = GetParam();
    mcp::Client client(mcp::in_process(server), options);
    client.connect();
    const std::string traceparent = "00-" + kTraceId + "-" + kCallerSpan + "-01";
    mcp::CallOptions call;
    call.trace = {traceparent, "vendor=3"};
    client.call_tool("echo", {{"text", "hi"}}, call);
    EXPECT_EQ(seen(), traceparent);
    call.trace = {"00-" + kTraceId + "-0000000000000000-01", ""};  // an all-zero parent: not well-formed
    client.call_tool("echo", {{"text", "hi"}}, call);
    EXPECT_EQ(seen(), "");
    client.close();
    std::lock_guard lock(received.mutex);
    EXPECT_TRUE(received.spans.empty());
}

// A gateway's hop in miniature: a traced server's handler calls another server through a client
// that shares the server's tracer (no endpoint of its own), passing Context::outgoing_trace().
TEST_P(ClientTracing, AHandlersCallThroughAClientSharingTheServersTracerIsUnderTheHandlerSpan) {
    mcp::ServerOptions outer_options;
    outer_options.tracing = traced_options().tracing;
    mcp::Server outer({.name = "outer", .version = "1.0"}, outer_options);
    mcp::ClientOptions inner_options;
    inner_options.protocol_version = GetParam();
    inner_options.tracer = outer.tracer();
    ASSERT_NE(inner_options.tracer, nullptr);
    auto inner = std::make_shared<mcp::Client>(mcp::in_process(server), std::move(inner_options));
    inner->connect();
    outer.tool("relay", "Calls echo on the inner server", [inner](const EchoIn& in, mcp::ToolContext& ctx) {
        mcp::CallOptions call;
        call.trace = ctx.outgoing_trace();
        return inner->call_tool("echo", {{"text", in.text}}, call).is_error ? "failed" : "relayed";
    });
    {
        mcp::Client client(mcp::in_process(outer), traced_options());
        client.connect();
        EXPECT_FALSE(client.call_tool("relay", {{"text", "hi"}}).is_error);
        client.close();
    }
    inner->close();
    ASSERT_TRUE(outer.flush_traces(std::chrono::seconds(10)));

    const auto relay = spans_named("tools/call relay");  // the caller's CLIENT span and outer's SERVER span
    ASSERT_EQ(relay.size(), 2U);
    const auto& outer_span = relay[0].at("kind") == 2 ? relay[0] : relay[1];
    const auto handler = spans_named("execute_tool relay");
    ASSERT_EQ(handler.size(), 1U);
    EXPECT_EQ(handler[0].at("parentSpanId"), outer_span.at("spanId"));
    const auto echo = spans_named("tools/call echo");
    ASSERT_EQ(echo.size(), 1U) << "the inner client's span went out through the server's tracer";
    EXPECT_EQ(echo[0].at("kind"), 3);
    EXPECT_EQ(echo[0].at("traceId"), outer_span.at("traceId"));
    EXPECT_EQ(echo[0].at("parentSpanId"), handler[0].at("spanId"));
    EXPECT_EQ(seen(), "00-" + std::string(echo[0].at("traceId").as_string()) + "-" +
                          std::string(echo[0].at("spanId").as_string()) + "-01");
}

// mcp::mount without tracing options of its own: its client shares the server's tracer, and a
// mounted call's CLIENT span is the child of the outer handler's span.
TEST_P(ClientTracing, AMountedCallContinuesTheOuterTraceThroughTheServersTracer) {
    mcp::ServerOptions outer_options;
    outer_options.tracing = traced_options().tracing;
    mcp::Server outer({.name = "outer", .version = "1.0"}, outer_options);
    mcp::ClientOptions inner_options;
    inner_options.protocol_version = GetParam();
    auto mounted = mcp::mount(outer, "inner", mcp::in_process(server), std::move(inner_options));
    {
        mcp::Client client(mcp::in_process(outer), traced_options());
        client.connect();
        EXPECT_FALSE(client.call_tool("inner_echo", {{"text", "hi"}}).is_error);
        client.close();
    }
    mounted.reset();
    ASSERT_TRUE(outer.flush_traces(std::chrono::seconds(10)));

    const auto handler = spans_named("execute_tool inner_echo");
    ASSERT_EQ(handler.size(), 1U);
    const auto echo = spans_named("tools/call echo");
    ASSERT_EQ(echo.size(), 1U) << "the mount's client span went out through the server's tracer";
    EXPECT_EQ(echo[0].at("kind"), 3);
    EXPECT_EQ(echo[0].at("traceId"), handler[0].at("traceId"));
    EXPECT_EQ(echo[0].at("parentSpanId"), handler[0].at("spanId"));
}

INSTANTIATE_TEST_SUITE_P(Revisions, ClientTracing, ::testing::Values("2026-07-28", "2025-11-25"),
                         [](const auto& test) { return test.param == "2026-07-28" ? "Modern" : "Sessions"; });
