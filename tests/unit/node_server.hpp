#pragma once
// A Node server nobody here wrote, on HTTP for a client test: `node --import listen_loopback.mjs
// SCRIPT ARGS...`, so that it listens on a free port of 127.0.0.1 whatever it asks for. Started in a
// process group of its own, killed with it (and with the test), its output kept for a failure's
// message.
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace testing_support {

class NodeServer {
public:
    // `preload`: listen_loopback.mjs; `env`: added to the test's environment. Throws when no
    // `listening on` line comes within 20 s.
    NodeServer(std::string node, std::string preload, std::vector<std::string> args,
               std::vector<std::pair<std::string, std::string>> env = {});
    ~NodeServer();
    NodeServer(const NodeServer&) = delete;
    NodeServer& operator=(const NodeServer&) = delete;

    std::uint16_t port() const { return port_; }
    // "http://127.0.0.1:<port><path>".
    std::string url(const std::string& path) const;
    // What it wrote on stdout and stderr so far (bounded).
    std::string output();

private:
    void stop();
    void read_output(int fd);

    int pid_ = -1;
    std::uint16_t port_ = 0;
    std::thread reader_;
    std::mutex mutex_;
    std::string output_;
};

}  // namespace testing_support
