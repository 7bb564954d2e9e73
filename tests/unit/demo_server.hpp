#pragma once
// mcp-cpp-demo serving Streamable HTTP for a client test: started on 127.0.0.1 (a port of its
// choosing the first time, the same one on restart), its stderr kept (bounded) so that a test can
// look for what it logged, killed with its test.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace testing_support {

class DemoServer {
public:
    // `binary`: the demo's path; `args`: more flags (--store, --log-level).
    explicit DemoServer(std::string binary, std::vector<std::string> args = {});
    ~DemoServer();
    DemoServer(const DemoServer&) = delete;
    DemoServer& operator=(const DemoServer&) = delete;

    // "http://127.0.0.1:<port>/mcp".
    const std::string& url() const { return url_; }
    std::uint16_t port() const { return port_; }
    int pid() const { return pid_; }

    // SIGKILL, and reaped.
    void kill();
    // Started again on the same port, with nothing of what it held.
    void restart();
    // Whether a line of its log holds `text`, waiting up to `limit` for one to.
    bool logged(const std::string& text, std::chrono::milliseconds limit = std::chrono::seconds(5));

private:
    void start();
    void read_log(int fd);

    std::string binary_;
    std::vector<std::string> args_;
    std::uint16_t port_ = 0;
    std::string url_;
    int pid_ = -1;
    std::thread reader_;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::string> lines_;
    bool log_ended_ = false;  // it exited
};

}  // namespace testing_support
