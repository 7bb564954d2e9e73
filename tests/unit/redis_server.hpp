#pragma once
// A real redis-server for a test: started on a free loopback port in a scratch directory, with no
// persistence, stopped (and restartable) by the test.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace testing_support {

// A TLS-only server's files (PEM): its certificate and key, the CA its clients' certificates come
// from, and the client certificate redis-cli presents when the server asks for one.
struct RedisTlsFiles {
    std::string cert;
    std::string key;
    std::string ca;
    std::string client_cert;
    std::string client_key;
    bool require_client_cert = false;
};

class RedisServer {
public:
    // With `tls`, the server listens for TLS only (--port 0 --tls-port).
    explicit RedisServer(std::optional<RedisTlsFiles> tls = std::nullopt);
    ~RedisServer();
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    void start();
    void stop();
    // Stops it and starts it again on the same port, empty (there is no persistence).
    void restart();
    bool running() const { return pid_ > 0; }
    // SIGSTOP / SIGCONT: it stops answering without closing its connections, as a hung host does.
    void pause();
    void resume();
    std::uint16_t port() const { return port_; }
    std::string url(int db = 0) const {
        return (tls_ ? "rediss://127.0.0.1:" : "redis://127.0.0.1:") + std::to_string(port_) + "/" + std::to_string(db);
    }
    // Runs redis-cli against it and returns its output (for checks such as DBSIZE).
    std::string cli(const std::string& args) const;

private:
    std::uint16_t port_ = 0;
    int pid_ = -1;
    bool restarting_ = false;
    std::string dir_;
    std::optional<RedisTlsFiles> tls_;
};

}  // namespace testing_support
