#include "node_server.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace testing_support {

namespace {

constexpr std::size_t kMaxOutput = 256 * 1024;
constexpr std::string_view kBanner = "listening on 127.0.0.1:";

}  // namespace

NodeServer::NodeServer(std::string node, std::string preload, std::vector<std::string> args,
                       std::vector<std::pair<std::string, std::string>> env) {
    std::vector<std::string> argv{std::move(node), "--import", std::move(preload)};
    argv.insert(argv.end(), args.begin(), args.end());
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        ::dup2(out[1], 1);
        ::dup2(out[1], 2);
        ::close(out[0]);
        ::close(out[1]);
        for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
        std::vector<char*> raw;
        for (auto& a : argv) raw.push_back(a.data());
        raw.push_back(nullptr);
        ::execv(raw[0], raw.data());
        ::_exit(127);
    }
    ::close(out[1]);
    reader_ = std::thread([this, fd = out[0]] { read_output(fd); });

    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < until) {
        {
            std::lock_guard lock(mutex_);
            if (const auto at = output_.find(kBanner); at != std::string::npos) {
                port_ = static_cast<std::uint16_t>(std::atoi(output_.c_str() + at + kBanner.size()));
                return;
            }
        }
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const auto said = output();
    stop();
    throw std::runtime_error(argv.at(3) + " did not start listening:\n" + said);
}

NodeServer::~NodeServer() { stop(); }

void NodeServer::stop() {
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
    if (reader_.joinable()) reader_.join();
}

std::string NodeServer::url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::string NodeServer::output() {
    std::lock_guard lock(mutex_);
    return output_;
}

void NodeServer::read_output(int fd) {
    char buffer[4096];
    for (;;) {
        const auto n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        std::lock_guard lock(mutex_);
        if (output_.size() < kMaxOutput) output_.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
}

}  // namespace testing_support
