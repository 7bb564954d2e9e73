// The default redirect listener of a desktop client (RFC 8252 §7.3), and the headless "browser"
// of fetch_authorization_redirect.
#include "client/auth/authorizer.hpp"

#include "net/http_error.hpp"
#include "net/url.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <istream>
#include <map>
#include <stdexcept>

namespace mcp::detail {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t kMaxRequestHead = 8 * 1024;

const char* const kDone =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\nCache-Control: no-store\r\n"
    "Content-Length: 95\r\n\r\n"
    "<!doctype html><title>Authorized</title><p>The client is authorized. You may close this tab.</p>";
const char* const kRefused =
    "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 29\r\n\r\n"
    "Not the expected redirection\n";

}  // namespace

struct LoopbackRedirect::Impl {
    asio::io_context& io;
    tcp::acceptor acceptor;
    std::string path;
    Impl(asio::io_context& context, std::string p)
        : io(context), acceptor(context, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), path(std::move(p)) {}
};

LoopbackRedirect::LoopbackRedirect(asio::io_context& io, std::string path)
    : impl_(std::make_unique<Impl>(io, std::move(path))) {}

LoopbackRedirect::~LoopbackRedirect() {
    boost::system::error_code ignored;
    impl_->acceptor.close(ignored);
}

std::string LoopbackRedirect::redirect_uri() const {
    return "http://127.0.0.1:" + std::to_string(impl_->acceptor.local_endpoint().port()) + impl_->path;
}

std::string LoopbackRedirect::wait(const std::string& state, std::chrono::milliseconds timeout, std::stop_token stop) {
    auto& io = impl_->io;
    asio::steady_timer timer(io, timeout);
    bool expired = false;
    timer.async_wait([&](boost::system::error_code ec) {
        if (ec) return;
        expired = true;
        boost::system::error_code ignored;
        impl_->acceptor.cancel(ignored);
    });
    std::stop_callback on_stop(stop, [&] {
        asio::post(io, [&] {
            boost::system::error_code ignored;
            impl_->acceptor.cancel(ignored);
        });
    });
    std::optional<std::string> result;
    std::string failure;
    bool done = false;
    // One connection at a time: a browser's favicon or a stray request is answered and dropped.
    std::function<void()> accept_one = [&] {
        auto socket = std::make_shared<tcp::socket>(io);
        impl_->acceptor.async_accept(*socket, [&, socket](boost::system::error_code ec) {
            if (ec) {
                failure = expired ? "nobody completed the authorization in time"
                                  : (stop.stop_requested() ? "the transport is closing" : ec.message());
                done = true;
                return;
            }
            auto buffer = std::make_shared<asio::streambuf>(kMaxRequestHead);
            asio::async_read_until(
                *socket, *buffer, "\r\n\r\n", [&, socket, buffer](boost::system::error_code ec2, std::size_t) {
                    std::string target;
                    if (!ec2) {
                        std::istream head(buffer.get());
                        std::string method, version;
                        head >> method >> target >> version;
                        if (method != "GET") target.clear();
                    }
                    const auto query = target.find('?');
                    const bool ours = !target.empty() && target.substr(0, query) == impl_->path;
                    const auto params = ours ? query_parameters(target) : std::map<std::string, std::string>{};
                    const auto s = params.find("state");
                    const bool accepted = ours && s != params.end() && s->second == state;
                    boost::system::error_code ignored;
                    asio::write(*socket, asio::buffer(std::string_view(accepted ? kDone : kRefused)), ignored);
                    socket->shutdown(tcp::socket::shutdown_both, ignored);
                    if (accepted) {
                        result = "http://127.0.0.1" + target;
                        done = true;
                        timer.cancel();
                        return;
                    }
                    accept_one();
                });
        });
    };
    accept_one();
    io.restart();
    while (!done && io.run_one() > 0) {}
    timer.cancel();
    // What is still pending (a cancelled accept) completes here, before the locals go.
    io.restart();
    io.poll();
    if (!result) throw std::runtime_error("OAuth: waiting for the authorization redirect failed: " + failure);
    return *result;
}

}  // namespace mcp::detail

namespace mcp {

namespace asio = boost::asio;

std::string fetch_authorization_redirect(const std::string& url, const std::string& redirect_uri,
                                         const net::HttpClientOptions& http) {
    asio::io_context io;
    net::HttpClient client(io, http);
    std::map<std::string, std::string> cookies;
    std::string next = url;
    for (int hop = 0; hop < 20; ++hop) {
        net::HttpRequest request;
        request.url = next;
        std::string cookie;
        for (const auto& [name, value] : cookies) {
            if (!cookie.empty()) cookie += "; ";
            cookie.append(name).append("=").append(value);
        }
        if (!cookie.empty()) request.headers.add("Cookie", cookie);
        std::optional<net::HttpResponse> response;
        std::exception_ptr error;
        asio::co_spawn(io, client.fetch(std::move(request)), [&](const std::exception_ptr& e, net::HttpResponse r) {
            error = e;
            if (!e) response = std::move(r);
        });
        io.restart();
        while (!response && !error && io.run_one() > 0) {}
        if (error) std::rethrow_exception(error);
        for (const auto line : response->headers.get_all("Set-Cookie")) {
            const auto pair = line.substr(0, line.find(';'));
            const auto eq = pair.find('=');
            if (eq != std::string_view::npos)
                cookies[std::string(pair.substr(0, eq))] = std::string(pair.substr(eq + 1));
        }
        const auto location = response->headers.get("Location");
        if (!location || response->status < 300 || response->status > 399)
            throw std::runtime_error("the authorization stopped at " + next + " with HTTP " +
                                     std::to_string(response->status));
        auto resolved = net::resolve_url(next, *location);
        std::string target = resolved ? *resolved : std::string(*location);
        if (target.starts_with(redirect_uri)) return target;
        if (!resolved) throw std::runtime_error("the authorization server redirected to an unusable URL");
        next = *resolved;
    }
    throw std::runtime_error("too many redirects during the authorization");
}

}  // namespace mcp
