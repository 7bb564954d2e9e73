#include "redis_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace testing_support {

namespace {

// Whether `act` (bind or connect) succeeds on a fresh socket for 127.0.0.1:port.
template <class Act>
bool on_loopback(std::uint16_t port, Act act) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = act(fd, reinterpret_cast<sockaddr*>(&addr), static_cast<socklen_t>(sizeof addr)) == 0;
    ::close(fd);
    return ok;
}

bool binds(std::uint16_t port) { return on_loopback(port, ::bind); }

// A free port outside the kernel's ephemeral range (below it, or above it when it starts low):
// restart() reuses the port, and an outgoing connection could take one from inside that range
// while the server is down.
std::uint16_t free_port() {
    int ephemeral_low = 32768;  // Linux's defaults
    int ephemeral_high = 60999;
    if (std::FILE* f = std::fopen("/proc/sys/net/ipv4/ip_local_port_range", "r")) {
        int low = 0;
        int high = 0;
        if (std::fscanf(f, "%d %d", &low, &high) == 2) {
            ephemeral_low = low;
            ephemeral_high = high;
        }
        std::fclose(f);
    }
    const bool below = ephemeral_low - 20000 >= 1000;
    const int low = below ? 20000 : ephemeral_high + 1;
    const int high = below ? ephemeral_low : 65536;
    if (high - low < 1000) throw std::runtime_error("no room for test ports outside the ephemeral range");
    static std::mt19937 pick(std::random_device{}());
    std::uniform_int_distribution<int> in_range(low, high - 1);
    for (int attempt = 0; attempt < 200; ++attempt) {
        const auto port = static_cast<std::uint16_t>(in_range(pick));
        if (binds(port)) return port;
    }
    throw std::runtime_error("no free loopback port outside the ephemeral range");
}

bool answers(std::uint16_t port) { return on_loopback(port, ::connect); }

}  // namespace

RedisServer::RedisServer(std::optional<RedisTlsFiles> tls) : port_(free_port()), tls_(std::move(tls)) {
    char pattern[] = "/tmp/mcp-redis-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    start();
}

RedisServer::~RedisServer() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void RedisServer::start() {
    if (pid_ > 0) return;
    // Tests run in parallel: another one may take the free port first. Its redis-server would then
    // answer, and ours would exit; a server counts as started only when it says it is ours.
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (attempt > 0 && !restarting_) port_ = free_port();
        pid_ = ::fork();
        if (pid_ == 0) {
            // Dies with the test (which forked from its main thread), even when the test crashes.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            const std::string port = std::to_string(port_);
            std::vector<std::string> args{"redis-server", "--bind", "127.0.0.1", "--save",     "",
                                          "--appendonly", "no",     "--dir",     dir_.c_str(), "--loglevel",
                                          "warning"};
            if (tls_) {
                args.insert(args.end(), {"--port", "0", "--tls-port", port, "--tls-cert-file", tls_->cert,
                                         "--tls-key-file", tls_->key, "--tls-ca-cert-file", tls_->ca,
                                         "--tls-auth-clients", tls_->require_client_cert ? "yes" : "no"});
            } else {
                args.insert(args.end(), {"--port", port});
            }
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execvp("redis-server", argv.data());
            std::perror("redis-server");
            ::_exit(127);
        }
        const std::string ours = "process_id:" + std::to_string(pid_);
        for (int i = 0; i < 200; ++i) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {  // exited: the port was taken
                pid_ = -1;
                break;
            }
            if (answers(port_) && cli("INFO server").find(ours) != std::string::npos) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        stop();
    }
    throw std::runtime_error("redis-server did not start (is it installed?)");
}

void RedisServer::stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

void RedisServer::pause() {
    if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void RedisServer::resume() {
    if (pid_ > 0) ::kill(pid_, SIGCONT);
}

void RedisServer::restart() {
    stop();
    restarting_ = true;  // same port: clients reconnect to it
    start();
    restarting_ = false;
}

std::string RedisServer::cli(const std::string& args) const {
    std::string command = "redis-cli -p " + std::to_string(port_) + " ";
    if (tls_) {
        command += "--tls --insecure ";  // its certificate may be a bad one on purpose
        if (tls_->require_client_cert) command += "--cert " + tls_->client_cert + " --key " + tls_->client_key + " ";
    }
    command += args;
    std::string out;
    if (FILE* p = ::popen(command.c_str(), "r")) {
        std::array<char, 4096> buffer;
        while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), p)) out.append(buffer.data(), n);
        ::pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

}  // namespace testing_support
