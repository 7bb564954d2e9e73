// The spans of a 2025 call's requests to its client (docs/adr/0030-tracing.md, decision 8): a
// CLIENT span per request under the call's SERVER span, the span of taking the answer in under it,
// their ends (an answer, an error answer, a timeout), nothing for an unsampled call; and the trace
// note read back from a request id's plaintext, whatever its shape. The server exports OTLP JSON
// to a receiver of the test's own.
#include "http_test_server.hpp"
#include "otlp_json.hpp"
#include "server/client_requests/rounds.hpp"

#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

namespace {

using mcp::test::string_attribute;

const std::string kTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string kCallerSpan = "00f067aa0ba902b7";

boost::json::value request(const boost::json::value& id, std::string_view method, boost::json::object params) {
    return boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

// The messages of one call handled asynchronously.
struct Pending {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<boost::json::value> messages;

    boost::json::value wait_for(std::string_view what) {
        std::unique_lock lock(mutex);
        boost::json::value found;
        changed.wait_for(lock, std::chrono::seconds(5), [&] {
            for (const auto& m : messages) {
                const auto& o = m.as_object();
                const auto* method = o.if_contains("method");
                if ((method != nullptr && method->as_string() == what) || (what == "result" && o.contains("result"))) {
                    found = m;
                    return true;
                }
            }
            return false;
        });
        return found;
    }
};

class RoundSpans : public ::testing::Test {
protected:
    RoundSpans()
        : receiver([this](mcp::test::Peer& peer) {
              while (auto request = peer.read_request()) {
                  auto received_spans = mcp::test::otlp_json_spans(request->body);
                  std::lock_guard lock(mutex);
                  spans.insert(spans.end(), received_spans.begin(), received_spans.end());
                  peer.write(mcp::test::http_response(200, "{}", "Content-Type: application/json\r\n"));
              }
          }),
          server({.name = "traced", .version = "1.0"}, options()) {
        mcp::FormSchema form;
        form.text("name");
        server.tool("ask_name", "Asks the user's name (keeps its thread)",
                    [form](mcp::ToolContext& ctx) { return ctx.elicit("Your name?", form).accepted() ? "yes" : "no"; });
        server.tool({.name = "ask_name_replayable", .description = "Asks the user's name (parks)", .replayable = true},
                    [form](mcp::ToolContext& ctx) { return ctx.elicit("Your name?", form).accepted() ? "yes" : "no"; });
        conn = std::make_unique<mcp::LocalConnection>(server);
        conn->send(request(0, "initialize",
                           {{"protocolVersion", "2025-11-25"},
                            {"capabilities", {{"elicitation", boost::json::object()}}},
                            {"clientInfo", {{"name", "gtest"}, {"version", "1"}}}}));
    }

    mcp::ServerOptions options() {
        mcp::ServerOptions o;
        o.client_requests.elicitation_timeout = std::chrono::milliseconds(300);
        o.tracing.endpoint = receiver.url("/v1/traces");
        o.tracing.protocol = mcp::telemetry::OtlpProtocol::http_json;
        return o;
    }

    // Calls `tool` under the test's traceparent (`flags` "01" sampled, "00" not).
    std::shared_ptr<Pending> start(std::string_view tool, std::string_view flags = "01") {
        auto pending = std::make_shared<Pending>();
        const std::string traceparent = "00-" + kTraceId + "-" + kCallerSpan + "-" + std::string(flags);
        conn->send_async(
            request(boost::json::string(tool), "tools/call",
                    {{"name", tool}, {"_meta", {{"traceparent", traceparent}}}}),
            [pending](const boost::json::value& m) {
                std::lock_guard lock(pending->mutex);
                pending->messages.push_back(m);
                pending->changed.notify_all();
            },
            [] {});
        return pending;
    }

    void answer(const boost::json::value& ask, boost::json::object body) {
        body["jsonrpc"] = "2.0";
        body["id"] = ask.at("id");
        conn->send(body);
    }

    // Every span exported so far, once the server flushed them.
    std::vector<boost::json::object> flushed() {
        EXPECT_TRUE(server.flush_traces(std::chrono::seconds(5)));
        std::lock_guard lock(mutex);
        return spans;
    }

    static const boost::json::object* named(const std::vector<boost::json::object>& all, std::string_view name) {
        for (const auto& s : all)
            if (s.at("name").as_string() == name) return &s;
        return nullptr;
    }

    std::mutex mutex;
    std::vector<boost::json::object> spans;
    mcp::test::TestServer receiver;
    mcp::Server server;
    std::unique_ptr<mcp::LocalConnection> conn;
};

}  // namespace

// The handler keeps its thread while it waits: the request's span, and the answer's under it.
TEST_F(RoundSpans, AnAnsweredRequestIsAClientSpanUnderTheCallAndTheAnswerASpanUnderIt) {
    auto pending = start("ask_name");
    const auto ask = pending->wait_for("elicitation/create");
    ASSERT_TRUE(ask.is_object());
    answer(ask, {{"result", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}});
    ASSERT_TRUE(pending->wait_for("result").is_object());

    const auto all = flushed();
    const auto* call = named(all, "tools/call ask_name");
    const auto* asked = named(all, "elicitation/create");
    const auto* taken = named(all, "elicitation/create answer");
    ASSERT_TRUE(call && asked && taken);
    EXPECT_EQ(asked->at("kind"), 3);  // CLIENT
    EXPECT_EQ(asked->at("traceId").as_string(), kTraceId);
    EXPECT_EQ(asked->at("parentSpanId"), call->at("spanId"));
    EXPECT_EQ(string_attribute(*asked, "mcp.method.name"), "elicitation/create");
    EXPECT_EQ(string_attribute(*asked, "jsonrpc.request.id"), ask.at("id").as_string());
    EXPECT_FALSE(asked->contains("status"));
    // The client was asked under the request's span.
    EXPECT_EQ(ask.at("params").at("_meta").at("traceparent").as_string(),
              "00-" + kTraceId + "-" + std::string(asked->at("spanId").as_string()) + "-01");
    EXPECT_EQ(taken->at("kind"), 2);  // SERVER
    EXPECT_EQ(taken->at("parentSpanId"), asked->at("spanId"));
    EXPECT_EQ(string_attribute(*taken, "jsonrpc.request.id"), ask.at("id").as_string());
    EXPECT_FALSE(taken->contains("events"));
}

TEST_F(RoundSpans, AnErrorAnswerAndATimeoutEndTheRequestsSpanInError) {
    auto refused = start("ask_name_replayable");
    const auto ask = refused->wait_for("elicitation/create");
    ASSERT_TRUE(ask.is_object());
    answer(ask, {{"error", {{"code", -1}, {"message", "user closed the dialog"}}}});
    ASSERT_TRUE(refused->wait_for("result").is_object());
    auto unanswered = start("ask_name");
    ASSERT_TRUE(unanswered->wait_for("notifications/cancelled").is_object());  // after 300 ms
    ASSERT_TRUE(unanswered->wait_for("result").is_object());

    const auto all = flushed();
    std::vector<boost::json::object> asked;
    for (const auto& s : all)
        if (s.at("name").as_string() == "elicitation/create") asked.push_back(s);
    ASSERT_EQ(asked.size(), 2U);
    for (const auto& span : asked) EXPECT_EQ(span.at("status").at("code"), 2);
    EXPECT_EQ(string_attribute(asked[0], "error.type"), "-1");
    EXPECT_EQ(asked[0].at("status").at("message"), "user closed the dialog");
    EXPECT_EQ(string_attribute(asked[1], "error.type"), "timeout");
    const auto* taken = named(all, "elicitation/create answer");
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(string_attribute(*taken, "error.type"), "-1");
}

TEST_F(RoundSpans, AnUnsampledCallsRequestsHaveNoSpans) {
    auto pending = start("ask_name_replayable", "00");
    const auto ask = pending->wait_for("elicitation/create");
    ASSERT_TRUE(ask.is_object());
    // The caller's decision goes on to the client; no span of the server's is named.
    EXPECT_EQ(ask.at("params").at("_meta").at("traceparent").as_string().subview(0, 36), "00-" + kTraceId + "-");
    EXPECT_EQ(ask.at("params").at("_meta").at("traceparent").as_string().subview(53), "00");
    answer(ask, {{"result", {{"action", "decline"}}}});
    ASSERT_TRUE(pending->wait_for("result").is_object());
    for (const auto& span : flushed()) {
        EXPECT_NE(span.at("traceId").as_string(), kTraceId) << span.at("name").as_string();
        EXPECT_EQ(span.at("name").as_string(), "initialize");  // a trace of its own, sampled
    }
}

// A request id's plaintext is sealed, so only the server's own shapes reach the reader; it still
// takes any shape without failing.
TEST(TraceNote, IsWhatFollowsTheSecondLineBreak) {
    using mcp::detail::trace_note_of;
    EXPECT_EQ(trace_note_of("session\nrandom\n00-abc-def-01 elicitation/create"), "00-abc-def-01 elicitation/create");
    EXPECT_EQ(trace_note_of("session\nrandom"), "");
    EXPECT_EQ(trace_note_of("session\nrandom\n"), "");
    EXPECT_EQ(trace_note_of("session"), "");
    EXPECT_EQ(trace_note_of(""), "");
    EXPECT_EQ(trace_note_of("\n\n\n"), "\n");
    EXPECT_EQ(trace_note_of("s\nr\nnote\nmore"), "note\nmore");
}
