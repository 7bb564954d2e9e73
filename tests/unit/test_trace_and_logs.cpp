// W3C trace context checks and spans, log text made printable, and outcomes read from responses.
#include "server/call_metrics.hpp"
#include "server/trace_context.hpp"
#include "util/log.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mcp::detail;

namespace {
const std::string kTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
}

TEST(TraceContext, AWellFormedTraceparentGetsASpanOfItsOwn) {
    const auto trace = start_span(kTraceparent, "vendor=a,other=b");
    EXPECT_EQ(trace.traceparent, kTraceparent);
    EXPECT_EQ(trace.tracestate, "vendor=a,other=b");
    EXPECT_EQ(trace.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    ASSERT_EQ(trace.span_id.size(), 16u);
    EXPECT_NE(trace.span_id, "00f067aa0ba902b7");
    EXPECT_NE(start_span(kTraceparent, "").span_id, trace.span_id);
    EXPECT_EQ(trace.child_traceparent(), "00-4bf92f3577b34da6a3ce929d0e0e4736-" + trace.span_id.str() + "-01");
}

TEST(TraceContext, AnIdOfAnotherLengthIsNoId) {
    const mcp::HexId<16> id("00f067aa0ba902b7");
    EXPECT_EQ(id.view(), "00f067aa0ba902b7");
    EXPECT_EQ(id.size(), 16U);
    for (const std::string_view bad :
         {"", "00f067aa0ba902b", "00f067aa0ba902b7a", "4bf92f3577b34da6a3ce929d0e0e4736"}) {
        const mcp::HexId<16> wrong(bad);
        EXPECT_TRUE(wrong.empty()) << bad;
        EXPECT_EQ(wrong.view(), "") << bad;
    }
}

TEST(TraceContext, MalformedTraceparentsAreDroppedWithTheirTracestate) {
    for (const std::string& bad : std::vector<std::string>{
             "",
             "00-00000000000000000000000000000000-00f067aa0ba902b7-01",    // trace id all zero
             "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",    // parent id all zero
             "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // version ff
             "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",    // upper case
             "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",  // version 00 is 55 characters
             "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",    // dashes misplaced
             "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
             std::string(5000, 'a'),
         }) {
        const auto trace = start_span(bad, "vendor=a");
        EXPECT_TRUE(trace.traceparent.empty() && trace.tracestate.empty() && trace.trace_id.empty())
            << bad.substr(0, 80);
        EXPECT_EQ(trace.child_traceparent(), "");
    }
}

TEST(TraceContext, ALaterVersionIsReadAndPassedOnAsVersion00) {
    const auto trace = start_span("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future", "");
    EXPECT_EQ(trace.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    EXPECT_TRUE(trace.child_traceparent().starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
}

TEST(TraceContext, AnOversizedOrUnprintableTracestateIsDroppedAlone) {
    EXPECT_EQ(start_span(kTraceparent, std::string(513, 'a')).tracestate, "");
    EXPECT_EQ(start_span(kTraceparent, "a=b\nc=d").tracestate, "");
    EXPECT_EQ(start_span(kTraceparent, std::string(512, 'a')).tracestate.size(), 512u);
}

TEST(TraceContext, PassOnWritesMetaOnlyWithATrace) {
    boost::json::object params{{"message", "Delete?"}};
    pass_on({}, params);
    EXPECT_FALSE(params.contains("_meta"));
    const auto trace = start_span(kTraceparent, "vendor=a");
    pass_on(trace, params);
    EXPECT_EQ(std::string(params.at("_meta").at("traceparent").as_string()), trace.child_traceparent());
    EXPECT_EQ(std::string(params.at("_meta").at("tracestate").as_string()), "vendor=a");
}

TEST(LogText, PrintableEscapesControlCharactersAndBoundsLength) {
    EXPECT_EQ(printable("plain"), "plain");
    EXPECT_EQ(printable("a\nb\r\x1b[31m"), "a\\x0ab\\x0d\\x1b[31m");
    EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");
    EXPECT_EQ(printable("bad \xff byte"), "bad \xef\xbf\xbd byte");
    const auto long_text = printable(std::string(10'000, 'x'), 50);
    EXPECT_EQ(long_text, std::string(50, 'x') + "…");
}

TEST(Outcomes, AreReadFromTheResponse) {
    auto outcome = [](const char* text) { return to_string(outcome_of(boost::json::parse(text))); };
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"result":{"content":[]}})"), "ok");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"result":{"isError":true}})"), "tool_error");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}})"), "input_required");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}})"), "invalid_params");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}})"), "method_not_found");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"x"}})"), "invalid_request");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"x"}})"), "other_error");
    EXPECT_EQ(outcome(R"({"jsonrpc":"2.0","id":1,"error":"not an object"})"), "other_error");
}
