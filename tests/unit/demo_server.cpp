#include "demo_server.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace testing_support {

namespace {

constexpr std::size_t kMaxLines = 20'000;
constexpr std::string_view kBanner = "serving MCP on ";

}  // namespace

DemoServer::DemoServer(std::string binary, std::vector<std::string> args)
    : binary_(std::move(binary)), args_(std::move(args)) {
    start();
}

DemoServer::~DemoServer() { kill(); }

void DemoServer::start() {
    // The port may linger for a moment after a restart: a few tries.
    for (int attempt = 0; attempt < 20; ++attempt) {
        int pipe_fds[2];
        if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
        const std::string listen = "127.0.0.1:" + std::to_string(port_);
        std::vector<std::string> argv{binary_, "--http", listen};
        argv.insert(argv.end(), args_.begin(), args_.end());
        pid_ = ::fork();
        if (pid_ == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with the test
            ::dup2(pipe_fds[1], 2);
            ::close(pipe_fds[0]);
            ::close(pipe_fds[1]);
            std::vector<char*> raw;
            for (auto& a : argv) raw.push_back(a.data());
            raw.push_back(nullptr);
            ::execv(raw[0], raw.data());
            ::_exit(127);
        }
        ::close(pipe_fds[1]);
        {
            std::lock_guard lock(mutex_);
            lines_.clear();
            log_ended_ = false;
        }
        reader_ = std::thread([this, fd = pipe_fds[0]] { read_log(fd); });
        std::unique_lock lock(mutex_);
        std::string banner;
        changed_.wait_for(lock, std::chrono::seconds(15), [&] {
            for (const auto& line : lines_) {
                if (const auto at = line.find(kBanner); at != std::string::npos) {
                    banner = line.substr(at + kBanner.size());
                    return true;
                }
            }
            return log_ended_;
        });
        lock.unlock();
        if (!banner.empty()) {
            url_ = banner.substr(0, banner.find_first_of(" \r\n"));
            const auto colon = url_.rfind(':');
            port_ = static_cast<std::uint16_t>(std::stoi(url_.substr(colon + 1)));
            return;
        }
        kill();
        if (port_ == 0) break;  // not a lingering port: it cannot start at all
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    throw std::runtime_error(binary_ + " did not start serving HTTP");
}

void DemoServer::read_log(int fd) {
    std::string pending;
    char buffer[4096];
    for (;;) {
        const auto n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        pending.append(buffer, static_cast<std::size_t>(n));
        std::size_t end;
        std::lock_guard lock(mutex_);
        while ((end = pending.find('\n')) != std::string::npos) {
            if (lines_.size() < kMaxLines) lines_.push_back(pending.substr(0, end));
            pending.erase(0, end + 1);
        }
        changed_.notify_all();
    }
    ::close(fd);
    std::lock_guard lock(mutex_);
    log_ended_ = true;
    changed_.notify_all();
}

void DemoServer::kill() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
    if (reader_.joinable()) reader_.join();
}

void DemoServer::restart() {
    kill();
    start();
}

bool DemoServer::logged(const std::string& text, std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, limit, [&] {
        return std::any_of(lines_.begin(), lines_.end(),
                           [&](const std::string& line) { return line.find(text) != std::string::npos; });
    });
}

}  // namespace testing_support
