// The HTTP transport's own spans (docs/adr/0030-tracing.md, decisions 11 and 12): what a bearer
// check hands down to the core, what a GET stream's span records, and that a request not sampled
// allocates nothing for either. Allocations are counted by this binary's operator new, per thread.
#include "telemetry/traceparent.hpp"
#include "telemetry/tracer.hpp"
#include "transport/http/stream_span.hpp"
#include "transport/http/verify_span.hpp"

#include <mcp/server/request_context.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t allocations = 0;
}

void* operator new(std::size_t size) {
    ++allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace mcp;
using namespace mcp::detail;

namespace {

constexpr std::string_view kCallerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";

// A tracer whose collector is never reached: these tests look at what is recorded, not exported.
telemetry::TracingOptions options_at(double ratio) {
    telemetry::TracingOptions options;
    options.endpoint = "http://127.0.0.1:9/v1/traces";
    options.sampling_ratio = ratio;
    return options;
}

TraceContext headers(std::string traceparent, std::string tracestate = {}) {
    TraceContext trace;
    trace.traceparent = std::move(traceparent);
    trace.tracestate = std::move(tracestate);
    return trace;
}

}  // namespace

TEST(VerifySpan, AllocatesNothingWhenTracingIsOffOrTheCallerDidNotSample) {
    telemetry::Tracer tracer(options_at(1.0), "test");
    auto off = headers("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    auto unsampled = headers("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "vendor=1");
    const auto before = allocations;
    {
        VerifySpan span(nullptr, off);
        EXPECT_EQ(span.fetches(), nullptr);
        span.accepted(off);
        VerifySpan refused(nullptr, off);
        refused.refused("invalid_token", "expired");
        VerifySpan not_sampled(&tracer, unsampled);
        EXPECT_EQ(not_sampled.fetches(), nullptr);
        not_sampled.accepted(unsampled);
    }
    EXPECT_EQ(allocations - before, 0U);
    EXPECT_EQ(off.traceparent, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    EXPECT_EQ(unsampled.traceparent, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
    EXPECT_EQ(unsampled.tracestate, "vendor=1");
    EXPECT_FALSE(unsampled.parent_local) << "the caller's traceparent goes on as it came";
}

TEST(VerifySpan, AcceptedHandsItsSpanDownAsTheRequestsParent) {
    telemetry::Tracer tracer(options_at(0.0), "test");  // parent-based: the caller's flag decides
    auto trace = headers("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=1");
    VerifySpan span(&tracer, trace);
    ASSERT_NE(span.fetches(), nullptr);
    span.accepted(trace);
    const auto handed = telemetry::parse_traceparent(trace.traceparent);
    ASSERT_TRUE(handed.has_value());
    EXPECT_EQ(trace.traceparent.substr(3, 32), kCallerTrace);
    EXPECT_NE(trace.traceparent.substr(36, 16), "00f067aa0ba902b7");  // the verification's span, not the caller's
    EXPECT_EQ(handed->flags, 1);
    EXPECT_EQ(trace.tracestate, "vendor=1");
    EXPECT_TRUE(trace.parent_local) << "the core's span is a child in this process";
}

TEST(VerifySpan, StartsTheTraceWhenTheTraceparentIsMissingOrMalformed) {
    for (const auto* hostile : {"", "garbage", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
                                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}) {
        for (const double ratio : {0.0, 1.0}) {
            telemetry::Tracer tracer(options_at(ratio), "test");
            auto trace = headers(hostile, "vendor=1");
            VerifySpan span(&tracer, trace);
            EXPECT_EQ(span.fetches() != nullptr, ratio == 1.0) << hostile;
            span.accepted(trace);
            const auto handed = telemetry::parse_traceparent(trace.traceparent);
            ASSERT_TRUE(handed.has_value()) << hostile;
            EXPECT_EQ(handed->flags, ratio == 1.0 ? 1 : 0) << "the core follows this decision: " << hostile;
            EXPECT_EQ(trace.parent_local, ratio == 1.0) << "no span recorded, none to be local: " << hostile;
            EXPECT_TRUE(trace.tracestate.empty()) << "it came with no usable traceparent: " << hostile;
        }
    }
}

TEST(VerifySpan, ARefusalHandsNothingDown) {
    telemetry::Tracer tracer(options_at(1.0), "test");
    auto trace = headers("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    VerifySpan span(&tracer, trace);
    span.fetches()->push_back({"jwks", "GET", "https://as.example/jwks", 503, "answered HTTP 503", {}, {}});
    span.refused("invalid_token", "unknown key");
    EXPECT_EQ(trace.traceparent, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
}

TEST(UrlForSpan, LeavesOutUserInformationQueryAndFragment) {
    EXPECT_EQ(url_for_span("https://as.example/jwks"), "https://as.example/jwks");
    EXPECT_EQ(url_for_span("https://user:secret@as.example:8443/jwks?key=secret#frag"), "https://as.example:8443/jwks");
    EXPECT_EQ(url_for_span("http://as.example/path@with-at?x=1"), "http://as.example/path@with-at");
    EXPECT_EQ(url_for_span("http://as.example?token=secret"), "http://as.example");
    EXPECT_EQ(url_for_span("https://a@b@as.example/k"), "https://as.example/k");
    EXPECT_EQ(url_for_span(""), "");
}

TEST(StreamSpan, AllocatesNothingWhenTracingIsOffOrTheStreamIsNotSampled) {
    telemetry::Tracer tracer(options_at(0.0), "test");
    StreamSpanIndex index;
    const auto unsampled = headers("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
    const auto none = headers("");
    const StreamSpan::Stream stream{"a-session-id-longer-than-fifteen", "get", "2025-11-25", true};
    const auto options = options_at(0.0);
    const auto before = allocations;
    EXPECT_EQ(StreamSpan::start(nullptr, options, unsampled, stream, index), nullptr);
    EXPECT_EQ(StreamSpan::start(&tracer, options, unsampled, stream, index), nullptr);
    EXPECT_EQ(StreamSpan::start(&tracer, options, none, stream, index), nullptr);  // a root at ratio 0
    EXPECT_EQ(allocations - before, 0U);
    EXPECT_FALSE(index.find("a-session-id-longer-than-fifteen", "get").has_value());
}

TEST(StreamSpan, EachPartIsRememberedForTheResumptionsThatComeBack) {
    telemetry::Tracer tracer(options_at(1.0), "test");
    StreamSpanIndex index;
    auto options = options_at(1.0);
    options.stream_span_events = 2;
    const auto trace = headers("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    auto span = StreamSpan::start(&tracer, options, trace, {"s1", "get", "2025-11-25", false}, index);
    ASSERT_NE(span, nullptr);
    const auto first = index.find("s1", "get");
    ASSERT_TRUE(first.has_value());
    span->sent(R"({"jsonrpc":"2.0","method":"notifications/message"})", "e1");
    span->sent(R"({"jsonrpc":"2.0","id":1,"result":{}})", "e2");
    EXPECT_EQ(index.find("s1", "get")->span_id, first->span_id);
    span->sent("not json", "e3");  // the third event begins the second part
    const auto second = index.find("s1", "get");
    EXPECT_NE(second->span_id, first->span_id);
    EXPECT_EQ(second->trace_id, first->trace_id);
    span->finish();
    span->sent("{}", "e4");  // nothing once finished
    EXPECT_EQ(index.find("s1", "get")->span_id, second->span_id);
}

TEST(StreamSpan, APartOlderThanItsLifetimeEndsAtTheNextEvent) {
    telemetry::Tracer tracer(options_at(1.0), "test");
    StreamSpanIndex index;
    auto options = options_at(1.0);
    options.stream_span_lifetime = std::chrono::seconds(0);  // every part is already old at its next event
    auto span = StreamSpan::start(&tracer, options, headers(""), {"s2", "get", "", false}, index);
    ASSERT_NE(span, nullptr);
    auto before = index.find("s2", "get")->span_id;
    for (int i = 0; i < 3; ++i) {
        span->sent("{}", "e");
        const auto now = index.find("s2", "get")->span_id;
        EXPECT_NE(now, before) << "event " << i;
        before = now;
    }
}

TEST(StreamSpan, NamesEachMessageByItsMethodOrAsAResponse) {
    EXPECT_EQ(message_kind(R"({"jsonrpc":"2.0","method":"notifications/progress","params":{}})"),
              "notifications/progress");
    EXPECT_EQ(message_kind(R"({"jsonrpc":"2.0","id":3,"method":"elicitation/create"})"), "elicitation/create");
    EXPECT_EQ(message_kind(R"({"jsonrpc":"2.0","id":3,"result":{}})"), "response");
    EXPECT_EQ(message_kind(R"({"jsonrpc":"2.0","id":3,"error":{"code":-1}})"), "response");
    for (const auto* hostile : {"", "not json", "[]", "null", "{", R"({"method":5})", R"({"id":1})",
                                "{\"method\":\"\xff\"", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]"}) {
        EXPECT_EQ(message_kind(hostile), "") << hostile;
    }
}

TEST(StreamSpanIndex, ForgetsTheOldestPastItsBound) {
    StreamSpanIndex index;
    telemetry::Link link;
    for (std::size_t i = 0; i <= StreamSpanIndex::kMaxStreams; ++i) {
        link.span_id[0] = static_cast<std::uint8_t>(i);
        index.remember("session-" + std::to_string(i), "get", link);
    }
    EXPECT_FALSE(index.find("session-0", "get").has_value());
    EXPECT_TRUE(index.find("session-1", "get").has_value());
    link.span_id[0] = 0xee;
    index.remember("session-1", "get", link);  // replaced, not added: nothing more is forgotten
    EXPECT_EQ(index.find("session-1", "get")->span_id[0], 0xee);
    EXPECT_TRUE(index.find("session-2", "get").has_value());
    EXPECT_FALSE(index.find("session-1", "other").has_value());
}
