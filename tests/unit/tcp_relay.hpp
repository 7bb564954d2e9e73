#pragma once
// A load balancer in miniature for a client test: it listens on a free port of 127.0.0.1 and relays
// each connection it accepts, byte for byte, to the first of its backends that takes one, starting
// from the one that took the last. When that backend dies, its connections close, and the next ones
// go to a live backend: what a balancer with health checks does, without the checks.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace testing_support {

class TcpRelay {
public:
    explicit TcpRelay(std::vector<std::uint16_t> backends);
    ~TcpRelay();
    TcpRelay(const TcpRelay&) = delete;
    TcpRelay& operator=(const TcpRelay&) = delete;

    std::uint16_t port() const { return port_; }
    // The backend that took the last connection.
    std::uint16_t current() const;

private:
    void accept_connections();
    int connect_backend();
    void relay(int client, int backend);

    std::vector<std::uint16_t> backends_;
    int listener_ = -1;
    std::uint16_t port_ = 0;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::size_t current_ = 0;
    std::vector<std::thread> relays_;
    std::thread acceptor_;
};

}  // namespace testing_support
