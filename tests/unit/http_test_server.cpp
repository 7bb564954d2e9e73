#include "http_test_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <stdexcept>

namespace mcp::test {

namespace {

constexpr std::size_t kMaxHead = 1024 * 1024;

bool iequal(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

}  // namespace

std::string ReceivedRequest::header(std::string_view name) const {
    std::string_view rest(head);
    while (!rest.empty()) {
        const auto eol = rest.find("\r\n");
        const auto line = rest.substr(0, eol);
        rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 2);
        const auto colon = line.find(':');
        if (colon == std::string_view::npos || !iequal(line.substr(0, colon), name)) continue;
        auto value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        return std::string(value);
    }
    return {};
}

Peer::~Peer() {
    if (tls_ != nullptr) SSL_free(tls_);
}

bool Peer::handshake() { return tls_ == nullptr || SSL_accept(tls_) == 1; }

bool Peer::fill() {
    char chunk[16 * 1024];
    const auto n = tls_ != nullptr ? SSL_read(tls_, chunk, sizeof chunk) : ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
}

std::optional<ReceivedRequest> Peer::read_request() {
    std::size_t end = 0;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (buffer_.size() > kMaxHead || !fill()) return std::nullopt;
    }
    ReceivedRequest request;
    request.head = buffer_.substr(0, end + 2);
    request.line = request.head.substr(0, request.head.find("\r\n"));
    buffer_.erase(0, end + 4);
    const auto length = request.header("Content-Length");
    const std::size_t size = length.empty() ? 0 : std::stoul(length);
    while (buffer_.size() < size) {
        if (!fill()) return std::nullopt;
    }
    request.body = buffer_.substr(0, size);
    buffer_.erase(0, size);
    return request;
}

bool Peer::write(std::string_view bytes) {
    while (!bytes.empty()) {
        const auto n = tls_ != nullptr ? SSL_write(tls_, bytes.data(), static_cast<int>(bytes.size()))
                                       : ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool Peer::wait_closed(int seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < until) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        buffer_.clear();
        if (!fill()) return true;
    }
    return false;
}

void Peer::shutdown() {
    if (tls_ != nullptr) SSL_shutdown(tls_);
    ::shutdown(fd_, SHUT_RDWR);
}

std::string Peer::server_name() const {
    const char* name = tls_ != nullptr ? SSL_get_servername(tls_, TLSEXT_NAMETYPE_host_name) : nullptr;
    return name != nullptr ? name : "";
}

std::string Peer::client_subject() const {
    if (tls_ == nullptr) return {};
    X509* certificate = SSL_get1_peer_certificate(tls_);
    if (certificate == nullptr) return {};
    char cn[256] = {};
    X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, cn, sizeof cn);
    X509_free(certificate);
    return cn;
}

TestServer::TestServer(Handler handler, ssl_ctx_st* tls) : handler_(std::move(handler)), tls_(tls) {
    // OpenSSL writes to its socket with write(): a client gone would end the test process.
    std::signal(SIGPIPE, SIG_IGN);
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(listener_, 64) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
        throw std::runtime_error("the test server cannot listen");
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

TestServer::~TestServer() {
    stopping_ = true;
    ::shutdown(listener_, SHUT_RDWR);  // out of accept()
    acceptor_.join();
    {
        std::lock_guard lock(mutex_);
        for (const auto& peer : peers_) ::shutdown(peer->fd(), SHUT_RDWR);  // out of any read
    }
    for (auto& thread : threads_) thread.join();
    for (const auto& peer : peers_) ::close(peer->fd());
    ::close(listener_);
}

std::string TestServer::url(std::string_view path) const {
    return std::string(tls_ != nullptr ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) +
           std::string(path);
}

void TestServer::accept_loop() {
    while (!stopping_) {
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd < 0) return;  // shut down
        ++accepted_;
        ssl_st* session = nullptr;
        if (tls_ != nullptr) {
            session = SSL_new(tls_);
            SSL_set_fd(session, fd);
        }
        auto peer = std::make_shared<Peer>(fd, session);
        std::lock_guard lock(mutex_);
        peers_.push_back(peer);
        threads_.emplace_back([this, peer] {
            // A handshake blocks the connection's own thread only: the acceptor stays free.
            if (peer->handshake()) handler_(*peer);
            peer->shutdown();
        });
    }
}

std::string http_response(int status, std::string_view body, std::string_view fields) {
    return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
           std::string(fields) + "\r\n" + std::string(body);
}

}  // namespace mcp::test
