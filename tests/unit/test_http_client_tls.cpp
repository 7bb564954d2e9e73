// net::HttpClient over TLS, against a loopback server with certificates made for the test: a
// trusted CA, a certificate for another name, an unknown CA, SNI, client certificates, keep-alive;
// and https through a CONNECT proxy the test plays.
#include "http_client_harness.hpp"
#include "http_test_server.hpp"
#include "test_certificates.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace {

using namespace mcp::test;
using mcp::net::HttpClient;
using mcp::net::HttpClientOptions;
using mcp::net::HttpErrorKind;

struct TlsFree {
    void operator()(SSL_CTX* context) const { SSL_CTX_free(context); }
};
using ServerTls = std::unique_ptr<SSL_CTX, TlsFree>;

// What the TLS server saw of its clients.
struct Seen {
    std::mutex mutex;
    std::string server_name;
    std::string client_subject;
};

TestServer::Handler answering_tls(Seen& seen) {
    return [&seen](Peer& peer) {
        {
            std::lock_guard lock(seen.mutex);
            seen.server_name = peer.server_name();
            seen.client_subject = peer.client_subject();
        }
        while (auto request = peer.read_request()) {
            if (!peer.write(http_response(200, "secure " + request->line))) return;
        }
    };
}

HttpClientOptions trusting_the_test_ca() {
    auto options = local_options();
    options.tls.ca_file = test_certificates().ca_file;
    return options;
}

struct HttpsClient : ::testing::Test {
    asio::io_context io;
    Seen seen;
};

TEST_F(HttpsClient, VerifiesTheServerAgainstTheGivenCaAndKeepsTheConnection) {
    ServerTls tls(server_tls(test_certificates().server));
    TestServer server(answering_tls(seen), tls.get());
    HttpClient client(io, trusting_the_test_ca());
    EXPECT_EQ(run(io, client.fetch(get(server.url("/a")))).body, "secure GET /a HTTP/1.1");
    EXPECT_EQ(run(io, client.fetch(get(server.url("/b")))).body, "secure GET /b HTTP/1.1");
    EXPECT_EQ(server.accepted(), 1);
    std::lock_guard lock(seen.mutex);
    EXPECT_EQ(seen.server_name, "");  // no SNI for an IP address
}

TEST_F(HttpsClient, SendsTheHostNameAsSni) {
    ServerTls tls(server_tls(test_certificates().server));
    TestServer server(answering_tls(seen), tls.get());
    HttpClient client(io, trusting_the_test_ca());
    const auto url = "https://localhost:" + std::to_string(server.port()) + "/";
    EXPECT_EQ(run(io, client.fetch(get(url))).status, 200U);
    std::lock_guard lock(seen.mutex);
    EXPECT_EQ(seen.server_name, "localhost");
}

TEST_F(HttpsClient, RefusesACertificateForAnotherName) {
    ServerTls tls(server_tls(test_certificates().other_name));
    TestServer server(answering_tls(seen), tls.get());
    HttpClient client(io, trusting_the_test_ca());
    const auto error = failure_of(io, client.fetch(get(server.url())));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::tls) << error->what();
    EXPECT_NE(std::string(error->what()).find("mismatch"), std::string::npos) << error->what();
}

TEST_F(HttpsClient, RefusesACaItWasNotGiven) {
    ServerTls tls(server_tls(test_certificates().server));
    TestServer server(answering_tls(seen), tls.get());
    HttpClient client(io, local_options());  // the system's roots
    const auto error = failure_of(io, client.fetch(get(server.url())));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::tls) << error->what();
}

TEST_F(HttpsClient, WithoutVerificationAcceptsAnyCertificate) {
    ServerTls tls(server_tls(test_certificates().other_name));
    TestServer server(answering_tls(seen), tls.get());
    auto options = local_options();
    options.tls.verify = false;
    HttpClient client(io, options);
    EXPECT_EQ(run(io, client.fetch(get(server.url()))).status, 200U);
}

TEST_F(HttpsClient, PresentsItsClientCertificate) {
    const auto& files = test_certificates();
    ServerTls tls(server_tls(files.server, files.ca_file));
    TestServer server(answering_tls(seen), tls.get());
    auto options = trusting_the_test_ca();
    options.tls.client_cert_file = files.client.cert;
    options.tls.client_key_file = files.client.key;
    HttpClient client(io, options);
    EXPECT_EQ(run(io, client.fetch(get(server.url()))).status, 200U);
    {
        std::lock_guard lock(seen.mutex);
        EXPECT_EQ(seen.client_subject, "mcp-test-client");
    }
    HttpClient without(io, trusting_the_test_ca());
    EXPECT_TRUE(failure_of(io, without.fetch(get(server.url()))));  // refused by the server
}

TEST_F(HttpsClient, AHandshakeThatNeverEndsTimesOutWithinTheConnectTimeout) {
    TestServer silent([](Peer& peer) { peer.wait_closed(5); });  // TCP, and not a TLS byte
    auto options = trusting_the_test_ca();
    options.connect_timeout = 150ms;
    HttpClient client(io, options);
    const auto start = std::chrono::steady_clock::now();
    auto request = get("https://127.0.0.1:" + std::to_string(silent.port()) + "/");
    const auto error = failure_of(io, client.fetch(request));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::timeout) << error->what();
    EXPECT_NE(std::string(error->what()).find("TLS with"), std::string::npos) << error->what();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);  // the request's own deadline is 5 s
}

TEST_F(HttpsClient, FilesItCannotUseAreRefusedWhenTheClientIsMade) {
    auto options = local_options();
    options.tls.ca_file = "/nonexistent/ca.pem";
    EXPECT_THROW(HttpClient(io, options), std::invalid_argument);
    options = local_options();
    options.tls.client_cert_file = test_certificates().client.cert;  // without its key
    EXPECT_THROW(HttpClient(io, options), std::invalid_argument);
    options.tls.client_key_file = test_certificates().server.key;  // another certificate's key
    EXPECT_THROW(HttpClient(io, options), std::invalid_argument);
}

// A CONNECT proxy: opens a TCP connection to the target the request names, answers 200 and relays
// bytes both ways until either side closes. Records the targets it was asked for.
class ConnectProxy {
public:
    ConnectProxy() : server_([this](Peer& peer) { tunnel(peer); }) {}
    std::uint16_t port() const { return server_.port(); }
    std::vector<std::string> targets() {
        std::lock_guard lock(mutex_);
        return targets_;
    }

private:
    void tunnel(Peer& peer) {
        const auto request = peer.read_request();
        if (!request || !request->line.starts_with("CONNECT ")) return;
        const auto target = request->line.substr(8, request->line.find(' ', 8) - 8);
        {
            std::lock_guard lock(mutex_);
            targets_.push_back(target);
        }
        const int upstream = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(std::stoi(target.substr(target.find(':') + 1))));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(upstream, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
            peer.write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
            ::close(upstream);
            return;
        }
        peer.write("HTTP/1.1 200 Connection established\r\n\r\n");
        const auto early = peer.take_buffered();  // what came after the CONNECT, if anything
        if (::send(upstream, early.data(), early.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(early.size())) {
            relay(peer.fd(), upstream);
        }
        ::close(upstream);
    }

    // Until either side closes, both stay quiet for 5 s, or 10,000 reads.
    static void relay(int a, int b) {
        char buffer[16 * 1024];
        for (int reads = 0, quiet = 0; reads < 10'000 && quiet < 100;) {
            pollfd fds[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
            if (::poll(fds, 2, 50) <= 0) {
                ++quiet;
                continue;
            }
            quiet = 0;
            for (int i = 0; i < 2; ++i) {
                if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
                ++reads;
                const auto n = ::recv(fds[i].fd, buffer, sizeof buffer, 0);
                if (n <= 0 || ::send(fds[1 - i].fd, buffer, static_cast<std::size_t>(n), MSG_NOSIGNAL) != n) return;
            }
        }
    }

    std::mutex mutex_;
    std::vector<std::string> targets_;
    TestServer server_;
};

TEST_F(HttpsClient, HttpsGoesThroughAConnectTunnel) {
    ServerTls tls(server_tls(test_certificates().server));
    TestServer server(answering_tls(seen), tls.get());
    ConnectProxy proxy;
    auto options = trusting_the_test_ca();
    options.proxy.https_proxy = "127.0.0.1:" + std::to_string(proxy.port());
    options.proxy.proxy_loopback = true;
    HttpClient client(io, options);
    EXPECT_EQ(run(io, client.fetch(get(server.url("/via")))).body, "secure GET /via HTTP/1.1");
    EXPECT_EQ(run(io, client.fetch(get(server.url("/again")))).status, 200U);  // the same tunnel, kept
    EXPECT_EQ(proxy.targets(), (std::vector<std::string>{"127.0.0.1:" + std::to_string(server.port())}));
    EXPECT_EQ(server.accepted(), 1);
}

TEST_F(HttpsClient, AProxyThatRefusesTheTunnelIsAProxyError) {
    TestServer proxy([](Peer& peer) {
        if (peer.read_request()) peer.write("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n");
    });
    auto options = trusting_the_test_ca();
    options.proxy.https_proxy = "http://127.0.0.1:" + std::to_string(proxy.port());
    options.proxy.proxy_loopback = true;
    HttpClient client(io, options);
    const auto error = failure_of(io, client.fetch(get("https://127.0.0.1:9/")));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), HttpErrorKind::proxy) << error->what();
    EXPECT_NE(std::string(error->what()).find("407"), std::string::npos) << error->what();
}

}  // namespace
