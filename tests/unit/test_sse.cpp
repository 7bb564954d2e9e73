// The SSE parser against each rule of the WHATWG event-stream interpretation, in one piece and
// split at every byte; its limits; and round trips from the server's SSE writer.
#include "net/sse_parser.hpp"
#include "net/sse_writer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using mcp::net::SseError;
using mcp::net::SseEvent;
using mcp::net::SseLimits;
using mcp::net::SseParser;

struct Parsed {
    std::vector<SseEvent> events;
    std::string last_id;
    std::optional<long long> retry_ms;
};

Parsed parse_pieces(const std::vector<std::string_view>& pieces, SseLimits limits = {}) {
    Parsed out;
    SseParser parser([&](SseEvent&& e) { out.events.push_back(std::move(e)); }, limits);
    for (const auto piece : pieces) parser.feed(piece);
    out.last_id = parser.last_event_id();
    if (parser.retry()) out.retry_ms = parser.retry()->count();
    return out;
}

Parsed parse(std::string_view text) { return parse_pieces({text}); }

// The same bytes, fed one at a time.
Parsed parse_bytewise(std::string_view text) {
    std::vector<std::string_view> pieces;
    for (std::size_t i = 0; i < text.size(); ++i) pieces.push_back(text.substr(i, 1));
    return parse_pieces(pieces);
}

std::string describe(const std::vector<SseEvent>& events) {
    std::string out;
    for (const auto& e : events) out += "[" + e.type + "|" + e.data + "|" + e.id + "]";
    return out;
}

// Whole, byte by byte, and split at each position: every way must give `expected`.
void expect_events(std::string_view text, const std::string& expected) {
    EXPECT_EQ(describe(parse(text).events), expected) << "whole";
    EXPECT_EQ(describe(parse_bytewise(text).events), expected) << "byte by byte";
    for (std::size_t at = 1; at < text.size(); ++at) {
        EXPECT_EQ(describe(parse_pieces({text.substr(0, at), text.substr(at)}).events), expected) << "split at " << at;
    }
}

TEST(SseParser, DataLinesJoinWithLineFeeds) {
    expect_events("data: one\ndata: two\ndata\ndata:three\n\n", "[message|one\ntwo\n\nthree|]");
}

TEST(SseParser, OneSpaceAfterTheColonIsDropped) {
    expect_events("data:  two spaces\n\ndata:none\n\n", "[message| two spaces|][message|none|]");
}

TEST(SseParser, EventFieldNamesTheTypeForOneEventOnly) {
    expect_events("event: ping\ndata: a\n\ndata: b\n\n", "[ping|a|][message|b|]");
    expect_events("event\ndata: a\n\n", "[message|a|]");  // an empty type is "message"
}

TEST(SseParser, TheLastEventIdPersistsAcrossEvents) {
    expect_events("id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n", "[message|a|7][message|b|7][message|c|]");
    EXPECT_EQ(parse("id: 9\n\n").last_id, "9");  // set even by an event that is not dispatched
}

TEST(SseParser, AnIdWithNulIsIgnored) {
    using namespace std::string_view_literals;
    expect_events("id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n"sv, "[message|a|1][message|b|1]");
}

TEST(SseParser, RetryTakesDigitsOnly) {
    EXPECT_EQ(parse("retry: 2500\n").retry_ms, 2500);
    EXPECT_EQ(parse("retry: 2500\nretry: 12a\nretry: -1\nretry:\nretry: 1.5\n").retry_ms, 2500);
    EXPECT_EQ(parse("retry: 99999999999999999999999999\n").retry_ms, std::nullopt);  // too large to hold
    EXPECT_EQ(parse("retry: 0\n").retry_ms, 0);
}

TEST(SseParser, CommentsAndUnknownFieldsAreIgnored) {
    expect_events(": keep-alive\n:\nfoo: bar\ndata: a\n: between\n\n", "[message|a|]");
    expect_events(":\n\n", "");  // the writer's keep-alive: no event
}

TEST(SseParser, CrLfAndCrEndLines) {
    expect_events("data: a\r\ndata: b\rdata: c\n\r\n", "[message|a\nb\nc|]");
    expect_events("data: a\r\rdata: b\r\r", "[message|a|][message|b|]");
}

TEST(SseParser, ACrLfSplitBetweenReadsIsOneLineEnd) {
    // Were the LF a line end of its own, the blank line would dispatch "a" and "b" apart.
    const auto parsed = parse_pieces({"data: a\r", "\ndata: b\r", "\n\r", "\n"});
    EXPECT_EQ(describe(parsed.events), "[message|a\nb|]");
}

TEST(SseParser, ALeadingBomIsDropped) {
    expect_events(
        "\xEF\xBB\xBF"
        "data: a\n\n",
        "[message|a|]");
    // Only at the start of the stream: later, the same bytes are part of a field name.
    expect_events(
        "data: a\n\n\xEF\xBB\xBF"
        "data: b\n\n",
        "[message|a|]");
    // Two BOMs: the second makes the first line's field name unknown.
    expect_events(
        "\xEF\xBB\xBF\xEF\xBB\xBF"
        "data: a\n\ndata: b\n\n",
        "[message|b|]");
}

TEST(SseParser, AnEventNotEndedByABlankLineIsNotDispatched) {
    expect_events("data: a\n\ndata: b\n", "[message|a|]");
    expect_events("data: a", "");
}

TEST(SseParser, AnEventWithoutDataIsNotDispatched) {
    expect_events("event: ping\n\ndata: x\n\n", "[message|x|]");  // the type does not carry over
}

TEST(SseParser, ALineOverItsLimitFailsWithoutHoldingIt) {
    const SseLimits limits{.max_line_bytes = 16, .max_event_bytes = 1024};
    std::vector<SseEvent> events;
    SseParser parser([&](SseEvent&& e) { events.push_back(std::move(e)); }, limits);
    parser.feed("data: ok\n\n");
    parser.feed("data: 012345678");             // 15 bytes of a line: held
    EXPECT_THROW(parser.feed("9X"), SseError);  // 17: over the limit before its end
    EXPECT_EQ(events.size(), 1U);
    EXPECT_THROW(parser.feed("\n\n"), SseError);  // spent
}

TEST(SseParser, AnEventOverItsLimitFails) {
    const SseLimits limits{.max_line_bytes = 64, .max_event_bytes = 20};
    SseParser parser([](SseEvent&&) {}, limits);
    EXPECT_THROW(
        {
            for (int i = 0; i < 10; ++i) parser.feed("data: 0123456789\n");  // never a blank line
        },
        SseError);
}

TEST(SseParser, AnEventOfTheDefaultTypeCountsTheTypeItIsGiven) {
    // A fuzzing finding: 40 bytes of data and no `event:` line held within 48 as the parser
    // counted, but the event delivered is 40 bytes of data and "message", 47 bytes. The limit
    // is on what is delivered: the data without its last line end, and the type it gets.
    const SseLimits limits{.max_line_bytes = 64, .max_event_bytes = 46};
    std::vector<SseEvent> events;
    SseParser parser([&](SseEvent&& e) { events.push_back(std::move(e)); }, limits);
    parser.feed("data: " + std::string(39, 'x') + "\n\n");  // 39 + 7 = 46: delivered
    ASSERT_EQ(events.size(), 1U);
    EXPECT_EQ(events[0].data.size() + events[0].type.size(), 46U);
    EXPECT_THROW(parser.feed("data: " + std::string(40, 'x') + "\n\n"), SseError);
    EXPECT_EQ(events.size(), 1U);
}

TEST(SseParser, EventsBeforeAnOverlongLineAreDelivered) {
    std::vector<SseEvent> events;
    SseParser parser([&](SseEvent&& e) { events.push_back(std::move(e)); }, {.max_line_bytes = 8});
    EXPECT_THROW(parser.feed("data: a\n\ndata: 0123456789\n\n"), SseError);
    EXPECT_EQ(describe(events), "[message|a|]");
}

TEST(SseParser, ManyBlankLinesAndCommentsHoldNothing) {
    // Hostile input that never makes an event: the parser keeps no more than a line.
    const SseLimits limits{.max_line_bytes = 64, .max_event_bytes = 64};
    SseParser parser([](SseEvent&&) { ADD_FAILURE() << "no event expected"; }, limits);
    for (int i = 0; i < 10'000; ++i) parser.feed(": comment\r\n\r\n\n\r");
}

TEST(SseWriter, Framing) {
    using namespace mcp::net;
    EXPECT_EQ(sse_event("{}"), "event: message\ndata: {}\n\n");
    EXPECT_EQ(sse_event("{}", "abc"), "id: abc\nevent: message\ndata: {}\n\n");
    EXPECT_EQ(sse_priming("x", 2000), "retry: 2000\nid: x\ndata: \n\n");
    EXPECT_EQ(sse_comment(), ":\n\n");
}

TEST(SseWriter, WhatTheServerWritesTheParserReads) {
    using namespace mcp::net;
    const std::string json = R"({"jsonrpc":"2.0","id":1,"result":{"text":"a: b\\nc"}})";
    const auto stream = sse_priming("p-1", 1500) + sse_comment() + sse_event(json, "e-2") + sse_event("{}");
    const auto parsed = parse(stream);
    ASSERT_EQ(parsed.events.size(), 3U);
    EXPECT_EQ(parsed.events[0].data, "");  // the priming event: an id, no message
    EXPECT_EQ(parsed.events[0].id, "p-1");
    EXPECT_EQ(parsed.events[1].data, json);
    EXPECT_EQ(parsed.events[1].type, "message");
    EXPECT_EQ(parsed.events[1].id, "e-2");
    EXPECT_EQ(parsed.events[2].data, "{}");
    EXPECT_EQ(parsed.events[2].id, "e-2");  // an event without an id keeps the last one
    EXPECT_EQ(parsed.retry_ms, 1500);
    EXPECT_EQ(describe(parse_bytewise(stream).events), describe(parsed.events));
}

}  // namespace
