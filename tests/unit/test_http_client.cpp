// net::HttpClient against a loopback server the test plays: requests and bodies of each framing,
// the keep-alive pool (reuse, its bound, its queue and the queue's timeout), streamed bodies and
// their cancellation, and servers that misbehave in every way a client must survive: each ends
// in a typed error, in bounded time and memory.
#include "http_client_harness.hpp"
#include "http_test_server.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace mcp::test;
using mcp::net::HttpClient;
using mcp::net::HttpClientOptions;
using mcp::net::HttpErrorKind;
using mcp::net::HttpRequest;
using mcp::net::HttpResponse;
using mcp::net::HttpStream;
using Clock = std::chrono::steady_clock;

// Answers every request on a connection with what `answer` makes of it.
TestServer::Handler answering(std::function<std::string(const ReceivedRequest&)> answer) {
    return [answer = std::move(answer)](Peer& peer) {
        while (auto request = peer.read_request()) {
            if (!peer.write(answer(*request))) return;
        }
    };
}

// "/<i>" (appended: GCC 12 warns falsely about "/" + std::to_string(i) at -O3).
std::string numbered(int i) {
    std::string path = "/";
    path += std::to_string(i);
    return path;
}

std::string chunked_head() { return "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"; }
std::string chunk(std::string_view data) {
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + std::string(data) + "\r\n";
}

struct HttpClientTest : ::testing::Test {
    asio::io_context io;

    HttpResponse fetch(HttpClient& client, HttpRequest request) { return run(io, client.fetch(std::move(request))); }
};

TEST_F(HttpClientTest, GetsAndPostsWithAnyHeaders) {
    TestServer server(answering([](const ReceivedRequest& r) {
        const auto echo = r.line + "|" + r.header("Authorization") + "|" + r.header("Content-Type") + "|" + r.body;
        return http_response(200, echo, "Set-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Type: text/plain\r\n");
    }));
    HttpClient client(io, local_options());

    const auto got = fetch(client, get(server.url("/path?q=1")));
    EXPECT_EQ(got.status, 200U);
    EXPECT_EQ(got.body, "GET /path?q=1 HTTP/1.1|||");
    EXPECT_EQ(got.headers.get("content-type"), "text/plain");
    EXPECT_EQ(got.headers.get_all("Set-Cookie"), (std::vector<std::string_view>{"a=1", "b=2"}));

    HttpRequest post = get(server.url("/mcp"));
    post.method = "POST";
    post.headers = {{"Authorization", "Bearer t0ken"}, {"Content-Type", "application/json"}};
    post.body = R"({"jsonrpc":"2.0"})";
    EXPECT_EQ(fetch(client, post).body, R"(POST /mcp HTTP/1.1|Bearer t0ken|application/json|{"jsonrpc":"2.0"})");
}

TEST_F(HttpClientTest, AnyStatusIsAResponseNotAnError) {
    TestServer server(answering([](const ReceivedRequest&) { return http_response(404, "no such thing"); }));
    HttpClient client(io, local_options());
    const auto got = fetch(client, get(server.url()));
    EXPECT_EQ(got.status, 404U);
    EXPECT_EQ(got.body, "no such thing");
}

TEST_F(HttpClientTest, KeepAliveReusesOneConnection) {
    TestServer server(answering([](const ReceivedRequest& r) { return http_response(200, r.line); }));
    HttpClient client(io, local_options());
    for (int i = 0; i < 5; ++i) EXPECT_EQ(fetch(client, get(server.url(numbered(i)))).status, 200U);
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpClientTest, ReadsChunkedLengthAndUntilCloseBodies) {
    TestServer server([](Peer& peer) {
        while (auto request = peer.read_request()) {
            if (request->line.starts_with("GET /chunked")) {
                peer.write(chunked_head() + chunk("hello ") + chunk("chunked") + "0\r\n\r\n");
            } else if (request->line.starts_with("GET /length")) {
                peer.write(http_response(200, "hello length"));
            } else {
                peer.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello close");
                return;
            }
        }
    });
    HttpClient client(io, local_options());
    EXPECT_EQ(fetch(client, get(server.url("/chunked"))).body, "hello chunked");
    EXPECT_EQ(fetch(client, get(server.url("/length"))).body, "hello length");
    EXPECT_EQ(fetch(client, get(server.url("/close"))).body, "hello close");
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpClientTest, AHeadRequestReadsNoBodyAndKeepsTheConnection) {
    TestServer server(answering([](const ReceivedRequest& r) {
        return r.line.starts_with("HEAD") ? "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" : http_response(200, "x");
    }));
    HttpClient client(io, local_options());
    auto head = get(server.url());
    head.method = "HEAD";
    const auto got = fetch(client, head);
    EXPECT_EQ(got.headers.get("Content-Length"), "1000");
    EXPECT_TRUE(got.body.empty());
    EXPECT_EQ(fetch(client, get(server.url())).body, "x");
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpClientTest, TheQueueWaitsForTheBoundOfConnections) {
    std::atomic<int> in_progress = 0;
    std::atomic<int> most = 0;
    TestServer server(answering([&](const ReceivedRequest& r) {
        const int now = ++in_progress;
        for (int seen = most; now > seen && !most.compare_exchange_weak(seen, now);) {}
        std::this_thread::sleep_for(50ms);
        --in_progress;
        return http_response(200, r.line);
    }));
    auto options = local_options();
    options.max_connections_per_origin = 2;
    HttpClient client(io, options);

    std::vector<std::future<HttpResponse>> responses;
    for (int i = 0; i < 5; ++i) {
        responses.push_back(asio::co_spawn(io, client.fetch(get(server.url(numbered(i)))), asio::use_future));
    }
    for (auto& response : responses) EXPECT_EQ(finish(io, response).status, 200U);
    EXPECT_EQ(server.accepted(), 2);
    EXPECT_EQ(most.load(), 2);
}

TEST_F(HttpClientTest, TimeQueuedCountsTowardTheDeadline) {
    TestServer server([](Peer& peer) {
        if (peer.read_request()) peer.wait_closed(5);  // holds the one connection
    });
    auto options = local_options();
    options.max_connections_per_origin = 1;
    HttpClient client(io, options);
    auto first = get(server.url("/held"));
    first.timeout = 600ms;
    auto held = asio::co_spawn(io, client.fetch(first), asio::use_future);
    run(io, sleep(50ms));

    auto second = get(server.url("/queued"));
    second.timeout = 200ms;
    const auto start = Clock::now();
    const auto error = failure_of(io, client.fetch(second));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::timeout) << error->what();
    EXPECT_NE(std::string(error->what()).find("waiting for a connection"), std::string::npos) << error->what();
    EXPECT_LT(Clock::now() - start, 1s);
    EXPECT_EQ(server.accepted(), 1);
    EXPECT_THROW(finish(io, held), mcp::net::HttpError);  // its own deadline
}

TEST_F(HttpClientTest, AFullQueueRefusesAtOnce) {
    TestServer server([](Peer& peer) {
        if (peer.read_request()) peer.wait_closed(5);
    });
    auto options = local_options();
    options.max_connections_per_origin = 1;
    options.max_queued_per_origin = 1;
    options.request_timeout = 400ms;
    HttpClient client(io, options);
    auto held = asio::co_spawn(io, client.fetch(get(server.url())), asio::use_future);
    auto queued = asio::co_spawn(io, client.fetch(get(server.url())), asio::use_future);
    run(io, sleep(50ms));
    const auto error = failure_of(io, client.fetch(get(server.url())));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::queue_full) << error->what();
    EXPECT_THROW(finish(io, held), mcp::net::HttpError);
    EXPECT_THROW(finish(io, queued), mcp::net::HttpError);
}

TEST_F(HttpClientTest, AStreamedBodyArrivesPieceByPiece) {
    std::atomic<bool> first_seen = false;
    std::atomic<bool> server_waited_for_it = false;
    TestServer server([&](Peer& peer) {
        if (!peer.read_request()) return;
        peer.write(chunked_head() + chunk("event one"));
        // The rest only once the client has the first piece: a client that waited for the whole
        // body would see it only after this times out.
        server_waited_for_it = eventually([&] { return first_seen.load(); });
        peer.write(chunk("event two") + "0\r\n\r\n");
    });
    HttpClient client(io, local_options());
    const auto pieces = run(io, [&]() -> asio::awaitable<std::vector<std::string>> {
        auto stream = co_await client.open(get(server.url("/sse")));
        std::vector<std::string> out;
        while (auto piece = co_await stream.next_chunk()) {
            out.push_back(*piece);
            first_seen = true;
        }
        co_return out;
    }());
    EXPECT_TRUE(server_waited_for_it);
    EXPECT_EQ(pieces, (std::vector<std::string>{"event one", "event two"}));
}

TEST_F(HttpClientTest, AStreamReadToItsEndGivesItsConnectionBack) {
    TestServer server(answering([](const ReceivedRequest&) { return chunked_head() + chunk("all") + "0\r\n\r\n"; }));
    HttpClient client(io, local_options());
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(run(io,
                      [&]() -> asio::awaitable<std::string> {
                          auto stream = co_await client.open(get(server.url()));
                          co_return co_await stream.read_all(100);
                      }()),
                  "all");
    }
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpClientTest, AStreamNotReadToItsEndClosesItsConnection) {
    std::atomic<bool> closed = false;
    TestServer server([&](Peer& peer) {
        auto request = peer.read_request();
        if (request && request->line.starts_with("GET /stream")) {
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345");
            closed = peer.wait_closed(3);
            return;
        }
        while (request) {
            peer.write(http_response(200, "plain"));
            request = peer.read_request();
        }
    });
    HttpClient client(io, local_options());
    run(io, [&]() -> asio::awaitable<void> {
        auto stream = co_await client.open(get(server.url("/stream")));
        EXPECT_EQ(*co_await stream.next_chunk(), "12345");
    }());  // the stream is dropped with half its body unread
    EXPECT_EQ(fetch(client, get(server.url("/plain"))).body, "plain");
    EXPECT_EQ(server.accepted(), 2);
    EXPECT_TRUE(eventually([&] { return closed.load(); }));
}

TEST_F(HttpClientTest, CancellingAStreamFromAnotherThreadClosesItPromptly) {
    std::atomic<bool> closed = false;
    TestServer server([&](Peer& peer) {
        if (!peer.read_request()) return;
        peer.write(chunked_head() + chunk("first"));
        closed = peer.wait_closed(5);  // an endless stream that says nothing more
    });
    HttpClient client(io, local_options());
    const auto start = Clock::now();
    const auto error = failure_of(io, [&]() -> asio::awaitable<void> {
        auto stream = co_await client.open(get(server.url()));
        EXPECT_EQ(*co_await stream.next_chunk(), "first");
        std::jthread canceller([&stream] {
            std::this_thread::sleep_for(50ms);
            stream.cancel();
        });
        co_await stream.next_chunk();  // waits until cancelled
    }());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::cancelled) << error->what();
    EXPECT_LT(Clock::now() - start, 1s);
    EXPECT_TRUE(eventually([&] { return closed.load(); }));
}

TEST_F(HttpClientTest, AStopTokenCancelsARequestInFlight) {
    std::atomic<bool> closed = false;
    TestServer server([&](Peer& peer) {
        if (peer.read_request()) closed = peer.wait_closed(5);  // never answers
    });
    HttpClient client(io, local_options());
    std::stop_source stop;
    auto request = get(server.url());
    request.stop = stop.get_token();
    std::jthread canceller([&stop] {
        std::this_thread::sleep_for(100ms);
        stop.request_stop();
    });
    const auto start = Clock::now();
    const auto error = failure_of(io, client.fetch(request));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::cancelled) << error->what();
    EXPECT_LT(Clock::now() - start, 1s);
    EXPECT_TRUE(eventually([&] { return closed.load(); }));
}

TEST_F(HttpClientTest, AKeptConnectionTheServerClosedIsReplaced) {
    TestServer server([](Peer& peer) {
        if (peer.read_request()) peer.write(http_response(200, "once"));  // then closes, without saying so
    });
    HttpClient client(io, local_options());
    EXPECT_EQ(fetch(client, get(server.url())).body, "once");
    EXPECT_EQ(fetch(client, get(server.url())).body, "once");
    EXPECT_EQ(server.accepted(), 2);
}

// The first connection answers one request, then takes the next and closes without answering:
// the server closed a kept connection just as the client sent on it. Later connections answer.
TestServer::Handler closing_under_the_second_request(std::atomic<int>& connections) {
    return [&connections](Peer& peer) {
        const bool first = ++connections == 1;
        while (auto request = peer.read_request()) {
            if (first && request->line.find("/second") != std::string::npos) return;
            if (!peer.write(http_response(200, request->line))) return;
        }
    };
}

TEST_F(HttpClientTest, AKeptConnectionClosedUnderAGetIsRetriedOnANewOne) {
    std::atomic<int> connections = 0;
    TestServer server(closing_under_the_second_request(connections));
    HttpClient client(io, local_options());
    EXPECT_EQ(fetch(client, get(server.url("/first"))).status, 200U);
    EXPECT_EQ(fetch(client, get(server.url("/second"))).body, "GET /second HTTP/1.1");
    EXPECT_EQ(server.accepted(), 2);
}

TEST_F(HttpClientTest, AKeptConnectionClosedUnderAPostIsAnErrorNotARetry) {
    std::atomic<int> connections = 0;
    TestServer server(closing_under_the_second_request(connections));
    HttpClient client(io, local_options());
    EXPECT_EQ(fetch(client, get(server.url("/first"))).status, 200U);
    auto post = get(server.url("/second"));
    post.method = "POST";
    post.body = "{}";
    const auto error = failure_of(io, client.fetch(post));  // the server may have acted on it
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::connection_closed) << error->what();
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpClientTest, IdleConnectionsExpire) {
    std::atomic<bool> closed = false;
    TestServer server([&](Peer& peer) {
        if (peer.read_request()) peer.write(http_response(200, "x"));
        closed = peer.wait_closed(3);
    });
    auto options = local_options();
    options.idle_connection_timeout = 100ms;
    HttpClient client(io, options);
    fetch(client, get(server.url()));
    run_for(io, 300ms);
    EXPECT_TRUE(eventually([&] { return closed.load(); }));
    fetch(client, get(server.url()));
    EXPECT_EQ(server.accepted(), 2);
}

// Hostile servers.

struct HostileHttpServer : HttpClientTest {
    std::optional<mcp::net::HttpError> failure(const std::string& response_bytes, HttpClientOptions options) {
        TestServer server([&](Peer& peer) {
            if (peer.read_request()) peer.write(response_bytes);
        });
        HttpClient client(io, options);
        return failure_of(io, client.fetch(get(server.url())));
    }
};

TEST_F(HostileHttpServer, AMalformedStatusLine) {
    const auto error = failure("HTTX/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", local_options());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::malformed_response) << error->what();
}

TEST_F(HostileHttpServer, OversizedHeaders) {
    auto options = local_options();
    options.max_header_bytes = 8 * 1024;
    const auto error = failure("HTTP/1.1 200 OK\r\nX-Big: " + std::string(100 * 1024, 'a') + "\r\n\r\n", options);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::headers_too_large) << error->what();
}

TEST_F(HostileHttpServer, AGigabyteResponseIsRefusedAtItsHead) {
    auto options = local_options();
    options.max_body_bytes = 1024 * 1024;
    const auto error =
        failure("HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n" + std::string(64 * 1024, 'a'), options);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::body_too_large) << error->what();
}

TEST_F(HostileHttpServer, AConnectionDroppedMidBody) {
    const auto error = failure("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part of it", local_options());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::connection_closed) << error->what();
}

TEST_F(HostileHttpServer, AConnectionDroppedBeforeAnyAnswer) {
    const auto error = failure("", local_options());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::connection_closed) << error->what();
}

TEST_F(HostileHttpServer, AnEndlessBodyStopsAtTheLimit) {
    constexpr int kPieces = 100'000;  // 1.6 GB
    std::atomic<int> cut_short = 0;   // connections whose client hung up before the end
    TestServer server([&](Peer& peer) {
        if (!peer.read_request() || !peer.write(chunked_head())) return;
        const auto piece = chunk(std::string(16 * 1024, 'a'));
        int written = 0;
        while (written < kPieces && peer.write(piece)) ++written;
        if (written < kPieces) ++cut_short;
    });
    auto options = local_options();
    options.max_body_bytes = 256 * 1024;
    HttpClient client(io, options);
    const auto whole = failure_of(io, client.fetch(get(server.url())));
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->kind(), HttpErrorKind::body_too_large) << whole->what();
    // Streamed, the reader sets the limit.
    const auto streamed = failure_of(io, [&]() -> asio::awaitable<void> {
        auto stream = co_await client.open(get(server.url()));
        co_await stream.read_all(512 * 1024);
    }());
    ASSERT_TRUE(streamed);
    EXPECT_EQ(streamed->kind(), HttpErrorKind::body_too_large) << streamed->what();
    EXPECT_TRUE(eventually([&] { return cut_short.load() == 2; }));
}

TEST_F(HostileHttpServer, ANeverAnsweringServerTimesOut) {
    TestServer server([](Peer& peer) { peer.wait_closed(5); });
    auto options = local_options();
    options.request_timeout = 200ms;
    HttpClient client(io, options);
    const auto start = Clock::now();
    const auto error = failure_of(io, client.fetch(get(server.url())));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::timeout) << error->what();
    EXPECT_LT(Clock::now() - start, 1s);
}

TEST_F(HostileHttpServer, AHeadDrippingSlowerThanTheDeadlineTimesOut) {
    TestServer server([](Peer& peer) {
        if (!peer.read_request()) return;
        const std::string head = "HTTP/1.1 200 OK\r\nX-Slow: " + std::string(200, 'a');
        for (const char c : head) {
            if (!peer.write(std::string_view(&c, 1))) return;
            std::this_thread::sleep_for(10ms);
        }
    });
    auto options = local_options();
    options.request_timeout = 300ms;
    HttpClient client(io, options);
    const auto error = failure_of(io, client.fetch(get(server.url())));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::timeout) << error->what();
}

TEST_F(HostileHttpServer, AQuietStreamTimesOutWhenAsked) {
    TestServer server([](Peer& peer) {
        if (peer.read_request()) peer.write(chunked_head() + chunk("one"));
        peer.wait_closed(5);
    });
    auto options = local_options();
    options.stream_idle_timeout = 150ms;
    HttpClient client(io, options);
    const auto start = Clock::now();
    const auto error = failure_of(io, [&]() -> asio::awaitable<void> {
        auto stream = co_await client.open(get(server.url()));
        EXPECT_EQ(*co_await stream.next_chunk(), "one");
        co_await stream.next_chunk();
    }());
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::timeout) << error->what();
    EXPECT_LT(Clock::now() - start, 1s);
}

TEST_F(HttpClientTest, NoServerIsAConnectError) {
    std::uint16_t port = 0;
    {
        TestServer gone([](Peer&) {});
        port = gone.port();
    }
    HttpClient client(io, local_options());
    const auto error = failure_of(io, client.fetch(get("http://127.0.0.1:" + std::to_string(port) + "/")));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::connect) << error->what();
}

TEST_F(HttpClientTest, AUrlItCannotFetchIsAnInvalidRequest) {
    HttpClient client(io, local_options());
    for (const auto* url : {"ftp://127.0.0.1/", "not a url", "/relative"}) {
        const auto error = failure_of(io, client.fetch(get(url)));
        ASSERT_TRUE(error) << url;
        EXPECT_EQ(error->kind(), HttpErrorKind::invalid_request) << url;
    }
}

TEST_F(HttpClientTest, AnHttpProxyGetsTheAbsoluteTarget) {
    std::mutex mutex;
    std::string seen_line;
    std::string seen_authorization;
    TestServer proxy(answering([&](const ReceivedRequest& r) {
        std::lock_guard lock(mutex);
        seen_line = r.line;
        seen_authorization = r.header("Proxy-Authorization");
        return http_response(200, "via proxy");
    }));
    auto options = local_options();
    options.proxy.http_proxy = "http://user:pass@127.0.0.1:" + std::to_string(proxy.port());
    options.proxy.proxy_loopback = true;
    HttpClient client(io, options);
    EXPECT_EQ(fetch(client, get("http://127.0.0.1:9/target?x=1")).body, "via proxy");
    {
        std::lock_guard lock(mutex);
        EXPECT_EQ(seen_line, "GET http://127.0.0.1:9/target?x=1 HTTP/1.1");
        EXPECT_EQ(seen_authorization, "Basic dXNlcjpwYXNz");
    }

    options.proxy.no_proxy = "127.0.0.1:9";
    HttpClient bypassing(io, options);
    const auto error = failure_of(io, bypassing.fetch(get("http://127.0.0.1:9/target")));
    ASSERT_TRUE(error);  // straight to port 9, where nothing listens
    EXPECT_EQ(error->kind(), HttpErrorKind::connect) << error->what();
}

}  // namespace
