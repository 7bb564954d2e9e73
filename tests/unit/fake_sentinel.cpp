#include "fake_sentinel.hpp"

#include "store/redis/resp.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace testing_support {

namespace {

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

std::string bulk(const std::string& s) {
    std::string out(1, '$');
    out += std::to_string(s.size());
    out += "\r\n";
    out += s;
    out += "\r\n";
    return out;
}

// A RESP array of the given, already encoded, elements.
std::string array(std::initializer_list<std::string> elements) {
    std::string out(1, '*');
    out += std::to_string(elements.size());
    out += "\r\n";
    for (const auto& e : elements) out += e;
    return out;
}

void send_all(int fd, const std::string& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const auto n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<std::size_t>(n);
    }
}

// Waits up to 100 ms for `fd` to be readable, so loops can notice they must stop.
bool readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 100) > 0;
}

}  // namespace

FakeSentinel::FakeSentinel() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener_, 16) != 0) {
        throw std::runtime_error("the fake sentinel could not listen");
    }
    socklen_t size = sizeof addr;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &size);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

FakeSentinel::~FakeSentinel() {
    stopping_ = true;
    acceptor_.join();
    ::close(listener_);
    {
        std::lock_guard lock(mutex_);
        for (const int fd : connections_) ::shutdown(fd, SHUT_RDWR);
    }
    for (auto& t : threads_) t.join();
    for (const int fd : connections_) ::close(fd);
}

void FakeSentinel::answer(std::string raw) {
    std::lock_guard lock(mutex_);
    answer_ = std::move(raw);
}

void FakeSentinel::name_master(std::uint16_t port) { answer(array({bulk("127.0.0.1"), bulk(std::to_string(port))})); }

void FakeSentinel::require_auth(std::vector<std::string> args) {
    std::lock_guard lock(mutex_);
    required_auth_ = std::move(args);
}

void FakeSentinel::announce_switch(const std::string& payload) {
    const auto message = array({bulk("message"), bulk("+switch-master"), bulk(payload)});
    std::lock_guard lock(mutex_);
    for (const int fd : subscribers_) send_all(fd, message);
}

std::size_t FakeSentinel::subscribers() const {
    std::lock_guard lock(mutex_);
    return subscribers_.size();
}

std::vector<std::vector<std::string>> FakeSentinel::auths() const {
    std::lock_guard lock(mutex_);
    return auths_;
}

void FakeSentinel::accept_loop() {
    while (!stopping_) {
        if (!readable(listener_)) continue;
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd < 0) continue;
        std::lock_guard lock(mutex_);
        connections_.push_back(fd);
        threads_.emplace_back([this, fd] { serve(fd); });
    }
}

void FakeSentinel::serve(int fd) {
    mcp::detail::RespParser parser;
    char buffer[4096];
    while (!stopping_) {
        if (!readable(fd)) continue;
        const auto n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        parser.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
        try {
            while (auto value = parser.next()) {
                std::vector<std::string> command;
                for (const auto& e : value->elements) command.push_back(e.text);
                if (command.empty()) continue;
                const auto reply = reply_to(fd, command);
                if (!reply.empty() && !silent_) send_all(fd, reply);
            }
        } catch (const std::runtime_error&) {
            break;
        }
    }
    std::lock_guard lock(mutex_);
    subscribers_.erase(std::remove(subscribers_.begin(), subscribers_.end(), fd), subscribers_.end());
}

std::string FakeSentinel::reply_to(int fd, const std::vector<std::string>& command) {
    const auto name = upper(command[0]);
    std::lock_guard lock(mutex_);
    if (name == "AUTH") {
        std::vector<std::string> args(command.begin() + 1, command.end());
        auths_.push_back(args);
        return args == required_auth_ ? "+OK\r\n" : "-WRONGPASS invalid username-password pair\r\n";
    }
    if (name == "SENTINEL" && command.size() == 3 && upper(command[1]) == "GET-MASTER-ADDR-BY-NAME") {
        ++questions_;
        return answer_;
    }
    if (name == "SUBSCRIBE" && command.size() == 2) {
        subscribers_.push_back(fd);
        return array({bulk("subscribe"), bulk(command[1]), ":1\r\n"});
    }
    if (name == "PING") return "+PONG\r\n";
    return "-ERR unknown command\r\n";
}

}  // namespace testing_support
