#pragma once
// A small HTTP server for the client's tests, on 127.0.0.1 and an ephemeral port: plain or TLS
// (OpenSSL on blocking sockets), one thread per connection running the test's handler, and a
// count of the connections it accepted. Handlers write whatever bytes a test needs, well-formed
// or not. Stopping the server shuts every connection down, which ends a handler blocked reading.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

struct ssl_ctx_st;
struct ssl_st;

namespace mcp::test {

struct ReceivedRequest {
    std::string line;  // "GET /path HTTP/1.1"
    std::string head;  // the request line and fields, up to the blank line
    std::string body;  // as its Content-Length says

    // The first value of a field, matched without regard to case; empty when absent.
    std::string header(std::string_view name) const;
};

// One accepted connection, as a handler sees it.
class Peer {
public:
    Peer(int fd, ssl_st* tls) : fd_(fd), tls_(tls) {}
    ~Peer();
    Peer(const Peer&) = delete;
    Peer& operator=(const Peer&) = delete;

    // The TLS handshake, when the server has TLS; false when it failed.
    bool handshake();
    // The next request; nothing at the end of the connection or past 1 MiB of head.
    std::optional<ReceivedRequest> read_request();
    // False once the client is gone.
    bool write(std::string_view bytes);
    // Reads and drops bytes until the client closes the connection: true then, false when the
    // server stopped first or `seconds` passed.
    bool wait_closed(int seconds = 5);
    // Bytes read past the last request (a tunnel relays them).
    std::string take_buffered() { return std::exchange(buffer_, {}); }
    // Ends the connection (FIN); the descriptor is released when the server goes.
    void shutdown();

    int fd() const { return fd_; }
    std::string server_name() const;     // SNI, for TLS
    std::string client_subject() const;  // the client certificate's CN, for TLS

private:
    // Some bytes into buffer_; false at the end of the connection.
    bool fill();

    int fd_;
    ssl_st* tls_;
    std::string buffer_;
};

class TestServer {
public:
    using Handler = std::function<void(Peer&)>;

    // With `tls` (the server's context, kept by the caller), every connection does a TLS handshake
    // first; one that fails is closed without running the handler.
    explicit TestServer(Handler handler, ssl_ctx_st* tls = nullptr);
    ~TestServer();
    TestServer(const TestServer&) = delete;
    TestServer& operator=(const TestServer&) = delete;

    std::uint16_t port() const { return port_; }
    int accepted() const { return accepted_.load(); }
    // "http://127.0.0.1:<port><path>", or https with TLS.
    std::string url(std::string_view path = "/") const;

private:
    void accept_loop();

    Handler handler_;
    ssl_ctx_st* tls_;
    int listener_ = -1;
    std::uint16_t port_ = 0;
    std::atomic<int> accepted_{0};
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;
    std::vector<std::shared_ptr<Peer>> peers_;
    std::vector<std::thread> threads_;
    std::thread acceptor_;
};

// "HTTP/1.1 <status> X" with Content-Length, `fields` (each ending in CRLF) and `body`.
std::string http_response(int status, std::string_view body, std::string_view fields = {});

}  // namespace mcp::test
