#pragma once
// A stand-in for a Redis Sentinel on a loopback port of its own, for the client's tests: it answers
// SENTINEL GET-MASTER-ADDR-BY-NAME with whatever bytes the test sets (a master, nil, garbage, or
// nothing at all), checks AUTH, and sends +switch-master to the connections that subscribed.
// Each connection has a thread of its own; the destructor closes them all.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace testing_support {

class FakeSentinel {
public:
    FakeSentinel();
    ~FakeSentinel();
    FakeSentinel(const FakeSentinel&) = delete;
    FakeSentinel& operator=(const FakeSentinel&) = delete;

    std::uint16_t port() const { return port_; }
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

    // The raw RESP reply to GET-MASTER-ADDR-BY-NAME; empty: the question is never answered.
    void answer(std::string raw);
    // Answers with a master on 127.0.0.1:port.
    void name_master(std::uint16_t port);
    // AUTH must carry these arguments (after "AUTH"); anything else is refused.
    void require_auth(std::vector<std::string> args);
    // A +switch-master message to every connection that subscribed to it.
    void announce_switch(const std::string& payload);
    // From now on it answers nothing, its connections left open: a stopped process.
    void go_silent() { silent_ = true; }

    std::size_t subscribers() const;
    std::size_t questions() const { return questions_.load(); }
    std::vector<std::vector<std::string>> auths() const;

private:
    void accept_loop();
    void serve(int fd);
    std::string reply_to(int fd, const std::vector<std::string>& command);

    int listener_ = -1;
    std::uint16_t port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> silent_{false};
    std::atomic<std::size_t> questions_{0};
    mutable std::mutex mutex_;
    std::string answer_;
    std::vector<std::string> required_auth_;
    std::vector<std::vector<std::string>> auths_;
    std::vector<int> connections_;
    std::vector<int> subscribers_;
    std::vector<std::thread> threads_;
    std::thread acceptor_;
};

}  // namespace testing_support
