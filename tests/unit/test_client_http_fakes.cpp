// mcp::Client over HTTP against fake servers the tests play (fake_mcp_http.hpp), for what the demo
// cannot show: 2025 streams cut and resumed with Last-Event-ID after the server's retry delay, the
// deprecated HTTP+SSE transport (spoken from the start, or reached by the negotiation's fallback),
// a 2025-only Streamable HTTP server, custom headers on every request, and servers that misbehave:
// malformed or misaddressed answers, endless streams, a gigabyte answer, silence, an endless
// input_required loop. Each ends in a clear error, in bounded time and memory.
#include "client_test_support.hpp"
#include "fake_mcp_http.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/http.hpp>
#include <mcp/protocol/errors.hpp>

#include <gtest/gtest.h>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <sstream>
#include <thread>

using namespace std::chrono_literals;
using client_testing::eventually;
using client_testing::first_text;
using fake::Clock;
using mcp::test::Peer;
using mcp::test::ReceivedRequest;

namespace {

std::shared_ptr<mcp::HttpTransport> http(const std::string& url, mcp::HttpServerParams params = {}) {
    params.url = url;
    return std::make_shared<mcp::HttpTransport>(std::move(params));
}

boost::json::value notification(std::string_view method, boost::json::object params = {}) {
    return boost::json::object{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

boost::json::value response(const boost::json::value& id, boost::json::value result) {
    return boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

long long millis(Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

// The 2025 handshake every session fake starts with: initialize assigns session "s1", notifications
// and responses are accepted. False: not one of those.
bool handshake(Peer& peer, const ReceivedRequest& request, const fake::Rpc& rpc, bool& keep) {
    if (rpc.method == "initialize") {
        keep = peer.write(fake::result(rpc.id, fake::initialize_result("2025-11-25"), "Mcp-Session-Id: s1\r\n"));
        return true;
    }
    if (request.line.starts_with("POST") && (rpc.id.is_null() || rpc.method.empty())) {
        keep = peer.write(fake::accepted());
        return true;
    }
    if (request.line.starts_with("DELETE")) {
        keep = peer.write(mcp::test::http_response(200, ""));
        return true;
    }
    return false;
}

}  // namespace

// ---- 2025 streams cut before their end.

TEST(ClientHttpResumption, APostStreamEndedBeforeItsAnswerIsResumedWithLastEventIdAfterTheRetryDelay) {
    std::atomic<long long> ended_at{0};
    std::atomic<std::int64_t> call_id{0};
    fake::Server server([&](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        bool keep = true;
        if (handshake(peer, request, rpc, keep)) return keep;
        if (rpc.method == "tools/call") {
            call_id = rpc.id.as_int64();
            peer.write(fake::sse_head() + fake::event("", "e1", 400) +
                       fake::message(notification("notifications/progress",
                                                  {{"progressToken", rpc.params.at("_meta").at("progressToken")},
                                                   {"progress", 1}}),
                                     "e2"));
            ended_at = Clock::now().time_since_epoch().count();
            return false;  // the body ends; the answer is not in it
        }
        if (request.line.starts_with("GET") && request.header("Last-Event-ID").empty())
            return peer.write(mcp::test::http_response(405, ""));
        if (request.line.starts_with("GET")) {
            peer.write(fake::sse_head() + fake::message(response(call_id.load(), fake::text_result("resumed")), "e3"));
            return false;
        }
        return peer.write(mcp::test::http_response(400, ""));
    });
    mcp::Client client(http(server.url()), {.protocol_version = "2025-11-25"});
    client.connect();
    std::atomic<int> progress{0};
    const auto result = client.call_tool("slow", {}, {.on_progress = [&](const mcp::Progress&) { ++progress; }});
    EXPECT_EQ(first_text(result), "resumed");
    EXPECT_TRUE(eventually([&] { return progress == 1; }));
    const auto resumed = server.seen("GET");
    ASSERT_EQ(resumed.size(), 2u);  // the session's own GET stream (405), then the resumption
    EXPECT_EQ(resumed[1].request.header("Last-Event-ID"), "e2");
    EXPECT_EQ(resumed[1].request.header("Mcp-Session-Id"), "s1");
    EXPECT_EQ(resumed[1].request.header("MCP-Protocol-Version"), "2025-11-25");
    const auto waited = millis(resumed[1].at.time_since_epoch() - Clock::duration(ended_at.load()));
    EXPECT_GE(waited, 400);  // the server's retry: 400 ms
    EXPECT_LT(waited, 800);  // and not twice that
    client.close();
}

TEST(ClientHttpResumption,
     TheSessionsGetStreamIsReopenedFromItsLastEventIdWhenCutAndEveryRequestCarriesTheCustomHeaders) {
    std::atomic<long long> cut_at{0};
    std::atomic<bool> closing{false};
    fake::Server server([&](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        bool keep = true;
        if (handshake(peer, request, rpc, keep)) return keep;
        if (request.line.starts_with("GET") && request.header("Last-Event-ID").empty()) {
            // Chunked, and cut in the middle of a chunk: a broken connection, not an ended body.
            const auto e =
                fake::event("", "g1", 300) + fake::message(notification("notifications/tools/list_changed"), "g2");
            std::ostringstream chunk;
            chunk << std::hex << e.size() << "\r\n"
                  << e << "\r\n"
                  << "40\r\npartial";
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
                       chunk.str());
            cut_at = Clock::now().time_since_epoch().count();
            return false;
        }
        if (request.line.starts_with("GET")) {
            peer.write(fake::sse_head() + fake::message(notification("notifications/prompts/list_changed"), "g3"));
            while (!closing && peer.write(": keep-alive\n\n")) std::this_thread::sleep_for(20ms);
            return false;
        }
        return peer.write(mcp::test::http_response(400, ""));
    });
    std::mutex m;
    std::vector<mcp::ListKind> changed;
    mcp::ClientHandlers handlers;
    handlers.list_changed = [&](mcp::ListKind kind) {
        std::lock_guard lock(m);
        changed.push_back(kind);
    };
    mcp::Client client(http(server.url(), {.headers = {{"Authorization", "Bearer t0ken"}, {"X-Tenant", "acme"}}}),
                       {.protocol_version = "2025-11-25", .handlers = handlers});
    client.connect();
    EXPECT_TRUE(eventually([&] {
        std::lock_guard lock(m);
        return changed == std::vector<mcp::ListKind>{mcp::ListKind::tools, mcp::ListKind::prompts};
    }));
    const auto gets = server.seen("GET");
    ASSERT_EQ(gets.size(), 2u);
    EXPECT_EQ(gets[1].request.header("Last-Event-ID"), "g2");
    EXPECT_GE(millis(gets[1].at.time_since_epoch() - Clock::duration(cut_at.load())), 300);
    closing = true;
    client.close();
    const auto deletes = server.seen("DELETE");
    ASSERT_EQ(deletes.size(), 1u);
    EXPECT_EQ(deletes[0].request.header("Mcp-Session-Id"), "s1");
    for (const auto& s : server.seen()) {
        EXPECT_EQ(s.request.header("Authorization"), "Bearer t0ken") << s.request.line;
        EXPECT_EQ(s.request.header("X-Tenant"), "acme") << s.request.line;
    }
}

// A server that sends its requests on the GET stream alone, and drops what it has no stream for
// (the TypeScript SDK 1.x does, for a request not tied to a client's): the first call after connect
// must not reach it before the GET stream does. The GET here is answered late, on purpose.
TEST(ClientHttpSession, RequestsWaitForTheGetStreamAfterTheHandshake) {
    std::atomic<long long> stream_open_at{0};
    std::atomic<bool> closing{false};
    fake::Server server([&](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        bool keep = true;
        if (handshake(peer, request, rpc, keep)) return keep;
        if (request.line.starts_with("GET")) {
            std::this_thread::sleep_for(300ms);
            // Stamped before the head goes out: the client cannot answer a head not yet written,
            // while a stamp after the write could lose the race with the POST it lets through.
            stream_open_at = Clock::now().time_since_epoch().count();
            peer.write(fake::sse_head());
            while (!closing && peer.write(": keep-alive\n\n")) std::this_thread::sleep_for(20ms);
            return false;
        }
        if (rpc.method == "tools/call") return peer.write(fake::result(rpc.id, fake::text_result("called")));
        return peer.write(mcp::test::http_response(400, ""));
    });
    mcp::Client client(http(server.url()), {.protocol_version = "2025-11-25"});
    client.connect();
    EXPECT_EQ(first_text(client.call_tool("t")), "called");
    const auto calls = server.seen("POST");
    const auto call = std::find_if(calls.begin(), calls.end(),
                                   [](const fake::Seen& s) { return fake::rpc_of(s.request).method == "tools/call"; });
    ASSERT_NE(call, calls.end());
    ASSERT_NE(stream_open_at.load(), 0);
    EXPECT_GE(call->at.time_since_epoch().count(), stream_open_at.load());
    closing = true;
    client.close();
}

TEST(ClientHttpResumption, AStreamThatCannotBeResumedFailsTheCall) {
    fake::Server server([&](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        bool keep = true;
        if (handshake(peer, request, rpc, keep)) return keep;
        if (rpc.method == "tools/call" && rpc.params.at("name") == "no_id") {
            peer.write(fake::sse_head() + fake::event(""));  // no event id to resume from
            return false;
        }
        if (rpc.method == "tools/call") {
            peer.write(fake::sse_head() + fake::event("", "e1", 100));
            return false;
        }
        if (request.line.starts_with("GET") && request.header("Last-Event-ID").empty())
            return peer.write(mcp::test::http_response(405, ""));
        return peer.write(mcp::test::http_response(409, "no such stream"));  // the resumption
    });
    mcp::Client client(http(server.url()), {.protocol_version = "2025-11-25"});
    client.connect();
    try {
        client.call_tool("no_id");
        FAIL() << "answered";
    } catch (const mcp::TransportError& e) {
        EXPECT_NE(std::string(e.what()).find("without an event id"), std::string::npos) << e.what();
    }
    try {
        client.call_tool("refused");
        FAIL() << "answered";
    } catch (const mcp::TransportError& e) {
        EXPECT_EQ(e.http_status(), 409);
        EXPECT_EQ(e.body(), "no such stream");
    }
}

// ---- The deprecated HTTP+SSE transport (2024-11-05).

namespace {

// A 2024-11-05 server: GET /sse names /messages?sessionId=abc (or `endpoint`), POSTs there are
// answered on the stream; anything else, a POST to /sse included, is refused as such a server does.
class LegacyServer {
public:
    explicit LegacyServer(std::string endpoint = "/messages?sessionId=abc")
        : endpoint_(std::move(endpoint)),
          server_([this](Peer& peer, const ReceivedRequest& r) { return route(peer, r); }) {}
    ~LegacyServer() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
    }
    std::string url() const { return server_.url("/sse"); }
    fake::Server& server() { return server_; }

private:
    bool route(Peer& peer, const ReceivedRequest& request) {
        if (request.line.starts_with("GET /sse")) {
            if (!peer.write(fake::sse_head() + fake::event(endpoint_, {}, {}, "endpoint"))) return false;
            std::unique_lock lock(mutex_);
            while (!stopping_) {
                changed_.wait_for(lock, 20ms);
                while (!outbox_.empty()) {
                    auto next = std::move(outbox_.front());
                    outbox_.pop_front();
                    if (!peer.write(fake::event(next, {}, {}, "message"))) return false;
                }
                if (!peer.write(": ping\n\n")) return false;
            }
            return false;
        }
        if (request.line.starts_with("POST /messages?sessionId=abc")) {
            const auto rpc = fake::rpc_of(request);
            boost::json::value answer;
            if (rpc.method == "initialize") answer = response(rpc.id, fake::initialize_result("2024-11-05"));
            if (rpc.method == "tools/call") answer = response(rpc.id, fake::text_result("over HTTP+SSE"));
            if (rpc.method == "tools/list")
                answer = response(rpc.id, boost::json::object{{"tools", boost::json::array()}});
            if (!answer.is_null()) {
                std::lock_guard lock(mutex_);
                outbox_.push_back(boost::json::serialize(answer));
            }
            changed_.notify_all();
            return peer.write(fake::accepted());
        }
        return peer.write(mcp::test::http_response(405, "Method Not Allowed"));
    }

    std::string endpoint_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> outbox_;
    bool stopping_ = false;
    fake::Server server_;
};

}  // namespace

TEST(ClientHttpLegacySse, ALegacyServerIsSpokenToFromTheStart) {
    LegacyServer legacy;
    mcp::Client client(std::make_shared<mcp::LegacySseTransport>(mcp::HttpServerParams{.url = legacy.url()}),
                       {.protocol_version = "2024-11-05"});
    client.connect();
    EXPECT_EQ(client.protocol_version(), "2024-11-05");
    EXPECT_EQ(first_text(client.call_tool("anything")), "over HTTP+SSE");
    EXPECT_TRUE(client.all_tools().empty());
    client.close();
    EXPECT_TRUE(legacy.server().seen("POST /sse").empty());  // no Streamable HTTP on the way
}

TEST(ClientHttpLegacySse, AutoFallsBackToItWhenTheServerRefusesTheProbeAndInitialize) {
    LegacyServer legacy;
    mcp::Client client(http(legacy.url()));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(client.protocol_version(), "2024-11-05");
    EXPECT_EQ(first_text(client.call_tool("anything")), "over HTTP+SSE");
    // server/discover and then initialize were POSTed to the URL, and refused with 405.
    EXPECT_EQ(legacy.server().seen("POST /sse").size(), 2u);
    client.close();
}

TEST(ClientHttpLegacySse, AnEndpointOnAnotherOriginIsRefused) {
    LegacyServer legacy("http://127.0.0.2:9/messages");
    mcp::Client client(std::make_shared<mcp::LegacySseTransport>(mcp::HttpServerParams{.url = legacy.url()}),
                       {.protocol_version = "2024-11-05"});
    try {
        client.connect();
        FAIL() << "connected";
    } catch (const mcp::ClientFailure& e) {
        // mcp::TransportError, or mcp::ConnectionClosed when the refusal closed the transport
        // before the initialize reached it: the reason is the same.
        EXPECT_NE(std::string(e.what()).find("another origin"), std::string::npos) << e.what();
    }
}

TEST(ClientHttpLegacySse, AStreamThatNamesNoEndpointInTimeFailsTheConnection) {
    fake::Server server([](Peer& peer, const ReceivedRequest&) {
        peer.write(fake::sse_head());
        while (peer.write(": nothing yet\n\n")) std::this_thread::sleep_for(20ms);
        return false;
    });
    mcp::Client client(std::make_shared<mcp::LegacySseTransport>(
                           mcp::HttpServerParams{.url = server.url("/sse"), .endpoint_timeout = 200ms}),
                       {.protocol_version = "2024-11-05"});
    const auto start = Clock::now();
    try {
        client.connect();
        FAIL() << "connected";
    } catch (const mcp::ClientFailure& e) {
        EXPECT_NE(std::string(e.what()).find("named no endpoint within 200 ms"), std::string::npos) << e.what();
    }
    EXPECT_LT(Clock::now() - start, 2s);
}

// ---- The negotiation over HTTP, end to end.

TEST(ClientHttpNegotiation, A2025OnlyServerRefusingTheProbeIsInitialized) {
    fake::Server server([](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        bool keep = true;
        if (handshake(peer, request, rpc, keep)) return keep;
        if (rpc.method == "server/discover")  // as a 2025 SDK server answers a request without a session
            return peer.write(fake::json(
                400,
                boost::json::object{{"jsonrpc", "2.0"},
                                    {"id", nullptr},
                                    {"error", {{"code", -32000}, {"message", "Bad Request: No valid session ID"}}}}));
        if (request.line.starts_with("GET")) return peer.write(mcp::test::http_response(405, ""));
        if (rpc.method == "tools/call") return peer.write(fake::result(rpc.id, fake::text_result("legacy")));
        return peer.write(mcp::test::http_response(400, ""));
    });
    mcp::Client client(http(server.url()));
    client.connect();
    EXPECT_EQ(client.era(), mcp::Era::sessions);
    EXPECT_EQ(client.protocol_version(), "2025-11-25");
    EXPECT_EQ(first_text(client.call_tool("x")), "legacy");
    EXPECT_EQ(server.seen("POST").front().request.header("Mcp-Method"), "server/discover");
}

// Negotiated or pinned alike: a refusal naming the version asked for asks once more.
TEST(ClientHttpNegotiation, AModernServerRefusingTheVersionIsAskedAgainInOneItSupports) {
    for (const auto* pinned : {"auto", "2026-07-28"}) {
        std::atomic<int> refused{0};
        fake::Server server([&](Peer& peer, const ReceivedRequest& request) {
            const auto rpc = fake::rpc_of(request);
            const auto version = request.header("MCP-Protocol-Version");
            const auto meta = rpc.params.at("_meta").at("io.modelcontextprotocol/protocolVersion").as_string();
            if (version != meta) return peer.write(mcp::test::http_response(400, "mismatch"));
            if (refused++ == 0)  // as the conformance suite's request-metadata scenario does, once
                return peer.write(fake::json(
                    400, boost::json::object{{"jsonrpc", "2.0"},
                                             {"id", rpc.id},
                                             {"error",
                                              {{"code", -32022},
                                               {"message", "Unsupported protocol version"},
                                               {"data", {{"supported", {"2026-07-28"}}, {"requested", version}}}}}}));
            if (rpc.method == "server/discover") return peer.write(fake::result(rpc.id, fake::discover_result()));
            return peer.write(fake::result(rpc.id, fake::text_result("modern")));
        });
        mcp::Client client(http(server.url()), {.protocol_version = pinned});
        client.connect();
        EXPECT_EQ(client.era(), mcp::Era::stateless) << pinned;
        EXPECT_EQ(client.server_info().name, "fake") << pinned;
        EXPECT_EQ(first_text(client.call_tool("x")), "modern") << pinned;
        EXPECT_EQ(refused.load(), 3) << pinned;  // the refused probe, the probe again, the call
    }
}

// ---- Servers that misbehave.

namespace {

// A 2026-07-28 server whose tools/call answers as `call` says; server/discover is answered.
fake::Server modern_server(std::function<bool(Peer&, const fake::Rpc&)> call) {
    return fake::Server([call = std::move(call)](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        if (rpc.method == "server/discover") return peer.write(fake::result(rpc.id, fake::discover_result()));
        if (rpc.method == "tools/call") return call(peer, rpc);
        return peer.write(fake::result(rpc.id, boost::json::object()));
    });
}

std::string tool_of(const fake::Rpc& rpc) { return std::string(rpc.params.at("name").as_string()); }

}  // namespace

TEST(ClientHttpHostile, MalformedOrMisaddressedAnswersFailTheCallAtOnceAndRepeatsAreDropped) {
    auto server = modern_server([](Peer& peer, const fake::Rpc& rpc) {
        const auto tool = tool_of(rpc);
        if (tool == "malformed")
            return peer.write(mcp::test::http_response(200, "{not json", "Content-Type: application/json\r\n"));
        if (tool == "wrong_id") return peer.write(fake::result(424242, fake::text_result("lost")));
        if (tool == "no_answer") {  // an SSE stream that ends without the answer
            peer.write(fake::sse_head() + fake::message(response(99, fake::text_result("not yours"))));
            return false;
        }
        peer.write(fake::sse_head() + fake::message(response(rpc.id, fake::text_result("once"))) +
                   fake::message(response(rpc.id, fake::text_result("twice"))));
        return false;
    });
    mcp::Client client(http(server.url()));
    client.connect();
    for (const auto* tool : {"malformed", "wrong_id", "no_answer"}) {
        const auto start = Clock::now();
        EXPECT_THROW(client.call_tool(tool), mcp::TransportError) << tool;
        EXPECT_LT(Clock::now() - start, 2s) << tool;
    }
    EXPECT_EQ(first_text(client.call_tool("repeated")), "once");
    EXPECT_TRUE(eventually([&] { return client.stats().unknown_responses >= 3; }));  // 424242, 99, the repeat
    EXPECT_EQ(client.stats().malformed_messages, 1u);
}

TEST(ClientHttpHostile, AnEndlessEventStreamWithoutAnAnswerEndsWithTheTimeoutAndItsConnection) {
    std::atomic<bool> client_left{false};
    std::atomic<std::size_t> written{0};
    auto server = modern_server([&](Peer& peer, const fake::Rpc&) {
        peer.write(fake::sse_head());
        const auto note = fake::message(notification("notifications/message", {{"level", "info"}, {"data", "x"}}));
        for (int i = 0; i < 100'000; ++i) {  // bounded: 20 s at most
            if (!peer.write(": keep-alive\n\n" + note)) break;
            written += note.size();
            std::this_thread::sleep_for(200us);
        }
        client_left = true;
        return false;
    });
    mcp::Client client(http(server.url()));
    client.connect();
    const auto start = Clock::now();
    EXPECT_THROW(client.call_tool("endless", {}, {.timeout = 500ms}), mcp::RequestTimeout);
    EXPECT_LT(Clock::now() - start, 2s);
    EXPECT_TRUE(eventually([&] { return client_left.load(); }));  // the stream was closed: the cancellation
}

TEST(ClientHttpHostile, AGigabyteAnswerIsRefusedAtTheLimitHavingReadLittleOfIt) {
    std::atomic<std::size_t> written{0};
    auto server = modern_server([&](Peer& peer, const fake::Rpc& rpc) {
        const std::string chunk(64 * 1024, ' ');
        if (tool_of(rpc) == "json") {
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n");
        } else {  // one SSE event that never ends
            peer.write(fake::sse_head() + "data: ");
        }
        for (std::size_t sent = 0; sent < (1u << 30) && peer.write(chunk); sent += chunk.size())
            written += chunk.size();
        return false;
    });
    mcp::Client client(http(server.url(), {.max_message_bytes = 1 << 20}));
    client.connect();
    for (const auto* tool : {"json", "sse"}) {
        written = 0;
        try {
            client.call_tool(tool);
            FAIL() << tool << " answered";
        } catch (const mcp::TransportError& e) {
            EXPECT_NE(std::string(e.what()).find("max_message_bytes"), std::string::npos) << e.what();
            EXPECT_EQ(e.http_status(), 0);
        }
        // What the server got out before the client closed: the limit and the sockets' buffers.
        EXPECT_LT(written.load(), 64u << 20) << tool;
    }
}

TEST(ClientHttpHostile, ARefusalFailsWithItsStatusAndABoundedBody) {
    auto server = modern_server([](Peer& peer, const fake::Rpc&) {
        return peer.write(mcp::test::http_response(503, std::string(1 << 20, 'x'), "Retry-After: 1\r\n"));
    });
    mcp::Client client(http(server.url(), {.max_error_body_bytes = 1000}));
    client.connect();
    try {
        client.call_tool("x");
        FAIL() << "answered";
    } catch (const mcp::TransportError& e) {
        EXPECT_EQ(e.http_status(), 503);
        EXPECT_EQ(e.body(), std::string(1000, 'x'));
    }
}

TEST(ClientHttpHostile, AServerThatNeverAnswersTimesOutAndSeesTheStreamClosed) {
    std::atomic<bool> closed{false};
    auto server = modern_server([&](Peer& peer, const fake::Rpc&) {
        closed = peer.wait_closed(10);
        return false;
    });
    mcp::Client client(http(server.url()));
    client.connect();
    const auto start = Clock::now();
    EXPECT_THROW(client.call_tool("mute", {}, {.timeout = 300ms}), mcp::RequestTimeout);
    EXPECT_LT(Clock::now() - start, 1s);
    EXPECT_TRUE(eventually([&] { return closed.load(); }));
}

TEST(ClientHttpHostile, AnEndlessInputRequiredLoopEndsAtTheRoundLimit) {
    std::atomic<int> calls{0};
    auto server = modern_server([&](Peer& peer, const fake::Rpc& rpc) {
        const auto n = ++calls;
        return peer.write(fake::result(
            rpc.id, boost::json::object{
                        {"resultType", "input_required"},
                        {"inputRequests",
                         {{"confirm",
                           {{"method", "elicitation/create"},
                            {"params",
                             {{"message", "Again?"},
                              {"requestedSchema", {{"type", "object"}, {"properties", boost::json::object()}}}}}}}}},
                        {"requestState", "round " + std::to_string(n)}}));
    });
    mcp::ClientHandlers handlers;
    handlers.elicitation = [](const mcp::Elicitation&) { return mcp::ElicitResult{mcp::ElicitAction::accept, {}}; };
    mcp::Client client(http(server.url()), {.handlers = handlers, .max_input_rounds = 3});
    client.connect();
    EXPECT_THROW(client.call_tool("loop"), mcp::InputRoundsExceeded);
    EXPECT_EQ(calls.load(), 4);  // the call and three answered rounds
}

// ---- What every 2026-07-28 POST carries.

TEST(ClientHttpRequestMetadata, EachPostMirrorsItsMethodNameAndAnnotatedParamsIntoHeaders) {
    auto server = fake::Server([](Peer& peer, const ReceivedRequest& request) {
        const auto rpc = fake::rpc_of(request);
        if (rpc.method == "server/discover") return peer.write(fake::result(rpc.id, fake::discover_result()));
        if (rpc.method == "tools/list") {
            const boost::json::object schema{{"type", "object"},
                                             {"properties",
                                              {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                               {"note", {{"type", "string"}, {"x-mcp-header", "Note"}}},
                                               {"count", {{"type", "integer"}}}}}};
            return peer.write(fake::result(
                rpc.id, boost::json::object{{"tools", {{{"name", "forecast"}, {"inputSchema", schema}}}}}));
        }
        return peer.write(fake::result(rpc.id, fake::text_result("ok")));
    });
    mcp::Client client(http(server.url()));
    client.connect();
    client.all_tools();
    EXPECT_EQ(first_text(client.call_tool("forecast", {{"region", "us-west1"}, {"note", "Grüße"}, {"count", 2}})),
              "ok");
    const auto posts = server.seen("POST");
    ASSERT_FALSE(posts.empty());
    for (const auto& s : posts) {
        const auto rpc = fake::rpc_of(s.request);
        EXPECT_EQ(s.request.header("MCP-Protocol-Version"), "2026-07-28") << rpc.method;
        EXPECT_EQ(rpc.params.at("_meta").at("io.modelcontextprotocol/protocolVersion"), "2026-07-28") << rpc.method;
        EXPECT_EQ(s.request.header("Mcp-Method"), rpc.method);
        EXPECT_TRUE(s.request.header("Mcp-Session-Id").empty());
    }
    const auto& call = posts.back().request;
    EXPECT_EQ(call.header("Mcp-Name"), "forecast");
    EXPECT_EQ(call.header("Mcp-Param-Region"), "us-west1");
    EXPECT_EQ(call.header("Mcp-Param-Note"), "=?base64?R3LDvMOfZQ==?=");
    EXPECT_TRUE(call.header("Mcp-Param-Count").empty());
}

// ---- Answers that are no answers.

TEST(ClientHttpHostile, AWrongContentTypeOrADroppedConnectionFailsTheCallWithWhy) {
    auto server = modern_server([](Peer& peer, const fake::Rpc& rpc) {
        const auto tool = tool_of(rpc);
        if (tool == "html")
            return peer.write(mcp::test::http_response(200, "<html>hi</html>", "Content-Type: text/html\r\n"));
        if (tool == "untyped") return peer.write(mcp::test::http_response(200, "{}"));
        if (tool == "half") {  // a head promising more body than comes
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"");
            return false;
        }
        return false;  // "dropped": the connection closes with no answer at all
    });
    mcp::Client client(http(server.url()));
    client.connect();
    for (const auto* tool : {"html", "untyped", "half", "dropped"}) {
        const auto start = Clock::now();
        try {
            client.call_tool(tool, {}, {.timeout = 5s});
            FAIL() << tool << " answered";
        } catch (const mcp::TransportError& e) {
            const std::string why = e.what();
            if (std::string_view(tool) == "html" || std::string_view(tool) == "untyped") {
                EXPECT_NE(why.find("neither JSON nor an event stream"), std::string::npos) << why;
                EXPECT_EQ(e.http_status(), 200);
            } else {
                EXPECT_EQ(e.http_status(), 0) << why;
            }
        }
        EXPECT_LT(Clock::now() - start, 2s) << tool;
    }
}

TEST(ClientHttpHostile, ASlowServerIsWaitedForWithinTheTimeout) {
    auto server = modern_server([](Peer& peer, const fake::Rpc& rpc) {
        std::this_thread::sleep_for(300ms);
        return peer.write(fake::result(rpc.id, fake::text_result("late but there")));
    });
    mcp::Client client(http(server.url()));
    client.connect();
    EXPECT_EQ(first_text(client.call_tool("slow", {}, {.timeout = 2s})), "late but there");
    EXPECT_THROW(client.call_tool("slow", {}, {.timeout = 100ms}), mcp::RequestTimeout);
}
