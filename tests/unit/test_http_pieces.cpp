// Pieces of the HTTP transport: DNS-rebinding guards, content negotiation, header value
// decoding, sealed event ids, the memory journal behind resumable streams.
#include "server/routing_headers.hpp"
#include "sessions/resumable_stream.hpp"
#include "store/event_journal.hpp"
#include "transport/http/guards.hpp"
#include "transport/http/outbox.hpp"
#include "transport/http/response_writer.hpp"

#include <mcp/security/key_ring.hpp>

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <thread>

using namespace mcp::detail;

TEST(Guards, HostHeaders) {
    const std::vector<std::string> allowed{"localhost", "127.0.0.1", "[::1]"};
    for (const char* ok : {"localhost", "localhost:8080", "LOCALHOST:1", "127.0.0.1:3000", "[::1]:80", "[::1]"}) {
        EXPECT_TRUE(host_allowed(ok, allowed)) << ok;
    }
    for (const char* bad : {"evil.example.com", "evil.example.com:8080", "localhost.evil.com", "127.0.0.1.nip.io",
                            "localhost:abc", "localhost:", "[::1", "[::2]:80", "", "127.0.0.1@evil.com"}) {
        EXPECT_FALSE(host_allowed(bad, allowed)) << bad;
    }
}

TEST(ResponseHead, KeepAliveLengthAndNoHeaderInjection) {
    Request request{boost::beast::http::verb::post, "/mcp", 11};
    const auto head = format_response_head(200, request, "application/json", 42, header_list("Mcp-Session-Id", "abc"));
    EXPECT_EQ(head,
              "HTTP/1.1 200 OK\r\nServer: mcp-cpp\r\nMcp-Session-Id: abc\r\nContent-Type: application/json\r\n"
              "Content-Length: 42\r\n\r\n");
    request.keep_alive(false);
    EXPECT_NE(format_response_head(202, request, "", 0, {}).find("\r\nConnection: close\r\n"), std::string::npos);
    Request old{boost::beast::http::verb::post, "/mcp", 10};
    EXPECT_EQ(format_response_head(404, old, "", 0, {}).find("Connection:"),
              std::string::npos);  // 1.0 closes by default
    old.keep_alive(true);
    EXPECT_NE(format_response_head(404, old, "", 0, {}).find("HTTP/1.0 404 Not Found\r\n"), std::string::npos);
    EXPECT_NE(format_response_head(404, old, "", 0, {}).find("\r\nConnection: keep-alive\r\n"), std::string::npos);
    // A value from an authenticator's challenge cannot start a header or a body of its own.
    const auto hostile =
        format_response_head(401, request, "", 0, header_list("WWW-Authenticate", "Bearer\r\nSet-Cookie: x=1"));
    EXPECT_NE(hostile.find("WWW-Authenticate: Bearer\r\n"), std::string::npos);
    EXPECT_EQ(hostile.find("Set-Cookie"), std::string::npos);
}

TEST(ResponseHead, AnEventStreamIsChunkedUncachedAndKeepsNoInjectedHeader) {
    Request request{boost::beast::http::verb::post, "/mcp", 11};
    EXPECT_EQ(format_event_stream_head(request, header_list("Mcp-Session-Id", "abc")),
              "HTTP/1.1 200 OK\r\nServer: mcp-cpp\r\nMcp-Session-Id: abc\r\nContent-Type: text/event-stream\r\n"
              "Cache-Control: no-cache\r\nX-Accel-Buffering: no\r\nTransfer-Encoding: chunked\r\n\r\n");
    request.keep_alive(false);
    const auto closing = format_event_stream_head(request, header_list("Mcp-Session-Id", "abc\r\nSet-Cookie: x=1"));
    EXPECT_NE(closing.find("\r\nConnection: close\r\n"), std::string::npos);
    EXPECT_EQ(closing.find("Set-Cookie"), std::string::npos);
}

TEST(Guards, Origins) {
    const std::vector<std::string> allowed{"localhost", "127.0.0.1"};
    EXPECT_TRUE(origin_allowed("", allowed));  // not a browser
    EXPECT_TRUE(origin_allowed("http://localhost:5173", allowed));
    EXPECT_TRUE(origin_allowed("https://127.0.0.1", allowed));
    for (const char* bad : {"http://evil.example.com", "null", "file://localhost", "http://localhost@evil.com",
                            "localhost", "http://evil.com/http://localhost"}) {
        EXPECT_FALSE(origin_allowed(bad, allowed)) << bad;
    }
}

TEST(Guards, Accept) {
    EXPECT_TRUE(accepts("application/json, text/event-stream", "application/json"));
    EXPECT_TRUE(accepts("application/json, text/event-stream", "text/event-stream"));
    EXPECT_TRUE(accepts("text/event-stream;q=0.9, application/json;q=1", "application/json"));
    EXPECT_TRUE(accepts("*/*", "text/event-stream"));
    EXPECT_TRUE(accepts("text/*", "text/event-stream"));
    EXPECT_TRUE(accepts("", "application/json"));
    EXPECT_FALSE(accepts("application/json", "text/event-stream"));
    EXPECT_FALSE(accepts("text/html", "application/json"));
    EXPECT_TRUE(is_json_content_type("application/json; charset=utf-8"));
    EXPECT_TRUE(is_json_content_type("Application/JSON"));
    EXPECT_FALSE(is_json_content_type("text/plain"));
    EXPECT_FALSE(is_json_content_type("application/jsonx"));
    // Blanks (spaces and tabs) around a range or a media type are not part of it.
    EXPECT_TRUE(accepts(" \t ", "application/json"));
    EXPECT_TRUE(accepts("text/html,\t application/json \t;q=0.5", "application/json"));
    EXPECT_FALSE(accepts("application/json\t,  ", "text/event-stream"));
    EXPECT_TRUE(is_json_content_type("\t application/json \t; charset=utf-8"));
    EXPECT_FALSE(is_json_content_type(" \t "));
    EXPECT_FALSE(is_json_content_type("application/ json"));
}

TEST(HeaderValues, Base64SentinelIsDecodedStrictly) {
    EXPECT_EQ(decode_header_value("us-west1"), "us-west1");
    EXPECT_EQ(decode_header_value("=?base64?SGVsbG8=?="), "Hello");
    EXPECT_EQ(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, 世界");
    EXPECT_FALSE(decode_header_value("=?base64?SGVsbG8?="));                       // missing padding
    EXPECT_FALSE(decode_header_value("=?base64?SGVs!!!bG8=?="));                   // not base64
    EXPECT_FALSE(decode_header_value("a\nb"));                                     // control characters
    EXPECT_FALSE(decode_header_value("caf\xc3\xa9"));                              // raw non-ASCII
    EXPECT_EQ(decode_header_value("=?BASE64?SGVsbG8=?="), "=?BASE64?SGVsbG8=?=");  // the markers are case-sensitive
}

TEST(EventIds, SealedAndBoundToTheirPosition) {
    const auto keys = mcp::KeyRing::generate();
    const auto id = seal_event_id(keys, {"session-a", "3", "42"});
    auto pos = open_event_id(keys, id);
    ASSERT_TRUE(pos);
    EXPECT_EQ(pos->session_id, "session-a");
    EXPECT_EQ(pos->stream_id, "3");
    EXPECT_EQ(pos->event_id, "42");
    std::string altered = id;
    altered[altered.size() / 2] = altered[altered.size() / 2] == 'A' ? 'B' : 'A';
    EXPECT_FALSE(open_event_id(keys, altered));
    EXPECT_FALSE(open_event_id(mcp::KeyRing::generate(), id));  // another node's key
    EXPECT_FALSE(open_event_id(keys, "42"));
    EXPECT_FALSE(open_event_id(keys, keys.seal("request-state", "session-a\n3\n42")));  // another purpose
}

TEST(EventJournal, BoundedPerStreamAndAcrossStreams) {
    auto journal = make_memory_event_journal(3, 1 << 20, 2);
    for (int i = 1; i <= 5; ++i) EXPECT_EQ(journal->append("s1", std::to_string(i * 10)), std::to_string(i));
    EXPECT_EQ(journal->last_id("s1"), "5");
    EXPECT_EQ(journal->last_id("none"), "");
    bool complete = true;
    auto events = journal->after("s1", "", complete);
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events.front().id, "3");
    EXPECT_EQ(events.front().data, "30");
    EXPECT_FALSE(complete);  // 1 and 2 were dropped
    events = journal->after("s1", "3", complete);
    EXPECT_EQ(events.size(), 2u);
    EXPECT_TRUE(complete);
    EXPECT_TRUE(journal->after("s1", "not-a-number", complete).empty());
    EXPECT_FALSE(complete);
    journal->append("s2", "x");
    journal->append("s3", "y");  // the least recently written stream goes
    EXPECT_FALSE(journal->exists("s1"));
    EXPECT_TRUE(journal->after("s1", "", complete).empty());
    EXPECT_EQ(journal->after("s3", "", complete).size(), 1u);
    auto bytes = make_memory_event_journal(100, 10, 10);
    bytes->append("b", std::string(6, 'a'));
    bytes->append("b", std::string(6, 'b'));
    EXPECT_EQ(bytes->after("b", "", complete).size(), 1u);
}

// A parked call or a session may hold an outbox long after its connection, and its I/O context,
// are gone (until the server's end): the producers must then touch nothing of Asio.
TEST(Outbox, WakesItsConsumerAndOutlivesItsIoContext) {
    auto outbox = std::make_shared<Outbox>(1024);
    ASSERT_TRUE(outbox->start({ResponseHead::Kind::event_stream, 200, {}}));  // before any wait: remembered
    std::string received;
    {
        boost::asio::io_context io;
        std::thread producer;
        boost::asio::co_spawn(
            io,
            [&]() -> boost::asio::awaitable<void> {
                co_await outbox->wait();
                EXPECT_TRUE(outbox->head());
                producer = std::thread([&] {
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                    outbox->push("event");
                });
                bool finished = false;
                while (received.empty()) {
                    co_await outbox->wait();
                    received += outbox->take(finished);
                }
                outbox->release_consumer();
            },
            boost::asio::detached);
        io.run();
        producer.join();
    }
    EXPECT_EQ(received, "event");
    // The context is gone; the producers go on, and the outbox ends later.
    EXPECT_TRUE(outbox->push("late"));
    outbox->finish();
    outbox.reset();
}
