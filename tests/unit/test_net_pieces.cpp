// The HTTP client's pieces that need no socket: URLs, proxy settings and no_proxy matching,
// request heads, header lookup, and the response reader fed bytes in every split.
#include "net/http_error.hpp"
#include "net/proxy.hpp"
#include "net/request_head.hpp"
#include "net/response_reader.hpp"
#include "net/url.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

using namespace mcp::net;

HttpErrorKind error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const HttpError& e) {
        return e.kind();
    }
    ADD_FAILURE() << "no HttpError";
    return HttpErrorKind::invalid_request;
}

TEST(NetUrl, ParsesHttpAndHttpsWithTheirDefaultPorts) {
    const auto plain = parse_url("http://Example.COM/a/b?x=1#frag");
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->tls);
    EXPECT_EQ(plain->host, "example.com");
    EXPECT_EQ(plain->port, 80);
    EXPECT_EQ(plain->target, "/a/b?x=1");
    EXPECT_EQ(plain->host_header(), "example.com");
    EXPECT_EQ(plain->origin(), "http://example.com:80");
    EXPECT_EQ(plain->absolute_form(), "http://example.com/a/b?x=1");

    const auto secure = parse_url("https://example.com:8443");
    ASSERT_TRUE(secure);
    EXPECT_TRUE(secure->tls);
    EXPECT_EQ(secure->port, 8443);
    EXPECT_EQ(secure->target, "/");
    EXPECT_EQ(secure->host_header(), "example.com:8443");
    EXPECT_EQ(secure->authority(), "example.com:8443");
}

TEST(NetUrl, KeepsIpv6LiteralsAndUserinfo) {
    const auto v6 = parse_url("http://[::1]:3000/mcp");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->authority(), "[::1]:3000");
    EXPECT_EQ(parse_url("https://[::1]/")->host_header(), "[::1]");
    const auto proxy = parse_url("http://user:p%40ss@proxy:3128");
    ASSERT_TRUE(proxy);
    EXPECT_EQ(proxy->user, "user");
    EXPECT_EQ(proxy->password, "p@ss");
}

TEST(NetUrl, RefusesWhatItCannotFetch) {
    for (const auto* text : {"ftp://example.com/", "example.com/path", "/relative", "http://", "http:///path",
                             "http://example.com:0/", "http://example.com:65536/", "http://example.com:x/", ""}) {
        EXPECT_FALSE(parse_url(text)) << text;
    }
}

TEST(NetUrl, ResolvesReferencesAgainstABase) {
    const std::string base = "http://127.0.0.1:8080/sse?x=1";
    EXPECT_EQ(resolve_url(base, "/messages?sessionId=abc"), "http://127.0.0.1:8080/messages?sessionId=abc");
    EXPECT_EQ(resolve_url(base, "messages"), "http://127.0.0.1:8080/messages");
    EXPECT_EQ(resolve_url("http://h/a/b/sse", "../post"), "http://h/a/post");
    EXPECT_EQ(resolve_url(base, "//other.example/post"), "http://other.example/post");
    EXPECT_EQ(resolve_url(base, "https://other.example/post"), "https://other.example/post");
    EXPECT_FALSE(resolve_url("/relative-base", "/post"));
    EXPECT_FALSE(resolve_url(base, "http://[bad"));
}

TEST(NoProxy, MatchesHostsTheirSubdomainsAndPorts) {
    const std::string list = "example.com, .internal.net,10.0.0.1,[::1]:8080, api.test:443";
    EXPECT_TRUE(no_proxy_matches(list, "example.com", 80));
    EXPECT_TRUE(no_proxy_matches(list, "api.example.com", 80));
    EXPECT_FALSE(no_proxy_matches(list, "badexample.com", 80));
    EXPECT_TRUE(no_proxy_matches(list, "internal.net", 80));  // a leading dot changes nothing
    EXPECT_TRUE(no_proxy_matches(list, "a.b.internal.net", 80));
    EXPECT_TRUE(no_proxy_matches(list, "10.0.0.1", 80));
    EXPECT_FALSE(no_proxy_matches(list, "110.0.0.1", 80));
    EXPECT_FALSE(no_proxy_matches("0.0.1", "127.0.0.1", 80));  // no suffix matching for addresses
    EXPECT_TRUE(no_proxy_matches(list, "::1", 8080));
    EXPECT_FALSE(no_proxy_matches(list, "::1", 8081));
    EXPECT_TRUE(no_proxy_matches(list, "api.test", 443));
    EXPECT_FALSE(no_proxy_matches(list, "api.test", 80));
    EXPECT_TRUE(no_proxy_matches("EXAMPLE.com.", "example.com", 80));
    EXPECT_TRUE(no_proxy_matches("*.example.com", "a.example.com", 80));
    EXPECT_TRUE(no_proxy_matches("*", "anything.at.all", 1));
    EXPECT_FALSE(no_proxy_matches("", "example.com", 80));
    EXPECT_FALSE(no_proxy_matches(" , ,[broken", "example.com", 80));
}

TEST(NoProxy, LoopbackIsNeverProxiedUnlessAsked) {
    for (const auto* host : {"localhost", "api.localhost", "127.0.0.1", "127.1.2.3", "::1"}) {
        EXPECT_TRUE(is_loopback(host)) << host;
    }
    for (const auto* host : {"localhost.example.com", "128.0.0.1", "::2", "example.com"}) {
        EXPECT_FALSE(is_loopback(host)) << host;
    }
    ProxyConfig config;
    config.http = parse_url("http://proxy:3128");
    EXPECT_EQ(proxy_for(config, *parse_url("http://127.0.0.1:9/")), nullptr);
    EXPECT_NE(proxy_for(config, *parse_url("http://example.com/")), nullptr);
    config.proxy_loopback = true;
    EXPECT_NE(proxy_for(config, *parse_url("http://127.0.0.1:9/")), nullptr);
}

TEST(ProxySettings, ComeFromTheEnvironmentLowercaseFirstAndOptionsWin) {
    std::map<std::string, std::string> env{{"http_proxy", "http://lower:1"},
                                           {"HTTP_PROXY", "http://upper:2"},
                                           {"HTTPS_PROXY", "upper-tls:3"},
                                           {"NO_PROXY", "skip.me"}};
    const Environment lookup = [&](const char* name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional(it->second);
    };
    const auto config = proxy_config({}, lookup);
    ASSERT_TRUE(config.http && config.https);
    EXPECT_EQ(config.http->host, "lower");
    EXPECT_EQ(config.https->authority(), "upper-tls:3");  // a proxy without a scheme is http://
    EXPECT_EQ(config.no_proxy, "skip.me");
    EXPECT_EQ(proxy_for(config, *parse_url("https://skip.me/")), nullptr);
    EXPECT_EQ(proxy_for(config, *parse_url("https://example.com/")), &*config.https);
    EXPECT_EQ(proxy_for(config, *parse_url("http://example.com/")), &*config.http);

    ProxyOptions given;
    given.https_proxy = "http://given:4";
    EXPECT_EQ(proxy_config(given, lookup).https->host, "given");
    given.from_environment = false;
    const auto only_given = proxy_config(given, lookup);
    EXPECT_FALSE(only_given.http);
    EXPECT_TRUE(only_given.no_proxy.empty());
}

TEST(ProxySettings, RefuseAProxyTheClientCannotUse) {
    ProxyOptions options;
    options.from_environment = false;
    options.https_proxy = "https://proxy:443";  // TLS to the proxy itself
    EXPECT_THROW(proxy_config(options), std::invalid_argument);
    options.https_proxy = "socks5://proxy:1080";
    EXPECT_THROW(proxy_config(options), std::invalid_argument);
}

TEST(RequestHead, NamesTheHostLengthAndAgent) {
    HttpRequest request;
    request.method = "POST";
    request.headers = {{"Authorization", "Bearer abc"}, {"X-Two", "1"}, {"x-two", "2"}};
    request.body = "{}";
    const auto url = *parse_url("http://example.com:8080/mcp?a=1");
    EXPECT_EQ(request_head(request, url, nullptr, "agent/1"),
              "POST /mcp?a=1 HTTP/1.1\r\nHost: example.com:8080\r\nAuthorization: Bearer abc\r\nX-Two: 1\r\n"
              "x-two: 2\r\nUser-Agent: agent/1\r\nContent-Length: 2\r\n\r\n");
    request.method = "GET";
    request.body.clear();
    request.headers = {{"user-agent", "mine"}};
    EXPECT_EQ(request_head(request, url, nullptr, "agent/1"),
              "GET /mcp?a=1 HTTP/1.1\r\nHost: example.com:8080\r\nuser-agent: mine\r\n\r\n");
}

TEST(RequestHead, ThroughAProxyTheTargetIsAbsoluteWithTheProxysCredentials) {
    HttpRequest request;
    const auto url = *parse_url("http://example.com/x");
    const auto proxy = *parse_url("http://user:pass@proxy:3128");
    EXPECT_EQ(request_head(request, url, &proxy, "a"),
              "GET http://example.com/x HTTP/1.1\r\nHost: example.com\r\nUser-Agent: a\r\n"
              "Proxy-Authorization: Basic dXNlcjpwYXNz\r\n\r\n");
}

TEST(RequestHead, RefusesFieldsThatWouldSplitTheRequest) {
    const auto url = *parse_url("http://example.com/");
    const std::vector<HttpHeaders> refused{
        {{"X-A", "1\r\nX-Injected: 2"}}, {{"Bad Name", "1"}}, {{"X-A", std::string("a\0b", 3)}},
        {{"Content-Length", "5"}},       {{"host", "other"}}, {{"Transfer-Encoding", "chunked"}}};
    for (const auto& headers : refused) {
        HttpRequest request;
        request.headers = headers;
        EXPECT_EQ(error_of([&] { request_head(request, url, nullptr, "a"); }), HttpErrorKind::invalid_request);
    }
    HttpRequest request;
    request.method = "GET /x HTTP/1.1\r\n";
    EXPECT_EQ(error_of([&] { request_head(request, url, nullptr, "a"); }), HttpErrorKind::invalid_request);
}

TEST(HttpHeaders, LookUpWithoutRegardToCaseAndKeepEveryValue) {
    const HttpHeaders headers{{"Set-Cookie", "a=1"}, {"content-type", "text/plain"}, {"SET-COOKIE", "b=2"}};
    EXPECT_EQ(headers.get("Content-Type"), "text/plain");
    EXPECT_EQ(headers.get("set-cookie"), "a=1");
    EXPECT_EQ(headers.get_all("Set-Cookie"), (std::vector<std::string_view>{"a=1", "b=2"}));
    EXPECT_FALSE(headers.get("Location"));
    EXPECT_TRUE(headers.get_all("Location").empty());
}

struct Read {
    unsigned status = 0;
    std::string body;
    bool done = false;
    bool reusable = false;
    HttpHeaders headers;
};

// Feeds `bytes` in two pieces split at `at`, then the end of the connection when `eof`.
Read read_response(std::string_view bytes, std::size_t at, ResponseLimits limits = {}, bool eof = false) {
    ResponseReader reader(limits);
    Read out;
    reader.feed(bytes.substr(0, at));
    out.body += reader.take_body();
    reader.feed(bytes.substr(at));
    out.body += reader.take_body();
    if (eof) reader.feed_eof();
    out.body += reader.take_body();
    out.status = reader.status();
    out.done = reader.done();
    out.reusable = reader.done() && reader.reusable();
    out.headers = reader.headers();
    return out;
}

TEST(ResponseReader, DecodesChunkedBodiesSplitAnywhere) {
    const std::string response =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n"
        "5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n";
    for (std::size_t at = 0; at <= response.size(); ++at) {
        const auto read = read_response(response, at);
        EXPECT_EQ(read.body, "hello world") << at;
        EXPECT_TRUE(read.reusable) << at;
        EXPECT_FALSE(read.headers.contains("X-Trailer")) << at;  // a trailer is not a header
        EXPECT_EQ(read.headers.get("x-a"), "1");
    }
}

TEST(ResponseReader, PassesOverInterimResponses) {
    const std::string response =
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
        "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";
    for (std::size_t at = 0; at <= response.size(); ++at) {
        const auto read = read_response(response, at);
        EXPECT_EQ(read.status, 201U) << at;
        EXPECT_EQ(read.body, "ok") << at;
        EXPECT_FALSE(read.headers.contains("Link")) << at;
    }
}

TEST(ResponseReader, ABodyUntilCloseEndsAtTheEndOfTheConnection) {
    const auto read = read_response("HTTP/1.1 200 OK\r\n\r\nall of it", 5, {}, true);
    EXPECT_TRUE(read.done);
    EXPECT_EQ(read.body, "all of it");
    EXPECT_FALSE(read.reusable);
}

TEST(ResponseReader, IsNotReusableWithBytesAfterTheResponseOrConnectionClose) {
    EXPECT_FALSE(read_response("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200", 0).reusable);
    EXPECT_FALSE(read_response("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 0).reusable);
    EXPECT_TRUE(read_response("HTTP/1.1 204 No Content\r\n\r\n", 0).reusable);
    EXPECT_FALSE(read_response("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", 0).reusable);
}

TEST(ResponseReader, AHeadResponseHasNoBody) {
    const auto read = read_response("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", 3, {.no_body = true});
    EXPECT_TRUE(read.done);
    EXPECT_TRUE(read.reusable);
}

TEST(ResponseReader, RefusesWhatIsNotHttp) {
    for (const auto* bad :
         {"HTTX/1.1 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nNo colon\r\n\r\n",
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
          "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"}) {
        EXPECT_EQ(error_of([&] { read_response(bad, 0); }), HttpErrorKind::malformed_response) << bad;
    }
}

TEST(ResponseReader, BoundsTheHeadTheBodyAndChunkLines) {
    const ResponseLimits limits{.max_header_bytes = 256, .max_body_bytes = 10};
    const std::string huge_field = "HTTP/1.1 200 OK\r\nX: " + std::string(300, 'a') + "\r\n\r\n";
    EXPECT_EQ(error_of([&] { read_response(huge_field, 100, limits); }), HttpErrorKind::headers_too_large);
    const std::string endless_head = "HTTP/1.1 200 OK\r\n" + std::string(1000, 'a');  // no end in sight
    EXPECT_EQ(error_of([&] { read_response(endless_head, 0, limits); }), HttpErrorKind::headers_too_large);
    // A declared length over the limit fails before any of the body comes.
    EXPECT_EQ(error_of([&] { read_response("HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n", 0, limits); }),
              HttpErrorKind::body_too_large);
    EXPECT_EQ(error_of([&] {
                  read_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n1234", 0,
                                limits);
              }),
              HttpErrorKind::body_too_large);
    const std::string long_chunk_line =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + std::string(1000, 'e');
    EXPECT_EQ(error_of([&] { read_response(long_chunk_line, 0, limits); }), HttpErrorKind::malformed_response);
}

TEST(ResponseReader, ACutResponseIsAClosedConnection) {
    for (const auto* cut : {"", "HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
                            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"}) {
        EXPECT_EQ(error_of([&] { read_response(cut, 0, {}, true); }), HttpErrorKind::connection_closed) << cut;
    }
}

}  // namespace
