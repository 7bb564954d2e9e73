#include "tcp_relay.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <stdexcept>

namespace testing_support {

namespace {

sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

// Writes all of `data`; false once the peer is gone.
bool write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const auto n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0) return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

TcpRelay::TcpRelay(std::vector<std::uint16_t> backends) : backends_(std::move(backends)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    auto address = loopback(0);
    socklen_t size = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 64) != 0 || ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size) != 0)
        throw std::runtime_error("the relay cannot listen");
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_connections(); });
}

TcpRelay::~TcpRelay() {
    stopping_ = true;
    ::shutdown(listener_, SHUT_RDWR);  // wakes accept()
    acceptor_.join();
    ::close(listener_);
    for (auto& r : relays_) r.join();  // each notices stopping_ within its poll's timeout
}

std::uint16_t TcpRelay::current() const {
    std::lock_guard lock(mutex_);
    return backends_[current_];
}

void TcpRelay::accept_connections() {
    while (!stopping_) {
        const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        const int backend = connect_backend();
        if (backend < 0) {
            ::close(client);
            continue;
        }
        std::lock_guard lock(mutex_);
        relays_.emplace_back([this, client, backend] { relay(client, backend); });
    }
}

int TcpRelay::connect_backend() {
    std::lock_guard lock(mutex_);
    for (std::size_t tried = 0; tried < backends_.size(); ++tried) {
        const auto index = (current_ + tried) % backends_.size();
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const auto address = loopback(backends_[index]);
        if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
            current_ = index;
            return fd;
        }
        ::close(fd);
    }
    return -1;
}

void TcpRelay::relay(int client, int backend) {
    std::array<pollfd, 2> fds{pollfd{client, POLLIN, 0}, pollfd{backend, POLLIN, 0}};
    std::array<char, 16 * 1024> buffer;
    bool open = true;
    while (open && !stopping_) {
        if (::poll(fds.data(), fds.size(), 100) <= 0) continue;
        for (std::size_t i = 0; i < fds.size() && open; ++i) {
            if (fds[i].revents == 0) continue;
            const auto n = ::recv(fds[i].fd, buffer.data(), buffer.size(), 0);
            open = n > 0 && write_all(fds[1 - i].fd, buffer.data(), static_cast<std::size_t>(n));
        }
    }
    ::close(client);
    ::close(backend);
}

}  // namespace testing_support
