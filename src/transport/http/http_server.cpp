#include <mcp/transport/http.hpp>

#include <mcp/protocol/errors.hpp>
#include <mcp/server/server.hpp>

#include "transport/http/http_context.hpp"
#include "transport/http/http_metrics.hpp"
#include "transport/http/metrics_listener.hpp"
#include "util/limit_report.hpp"
#include "util/log.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <csignal>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mcp {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// One io_context per I/O thread, each run by that thread alone. A connection lives on one of
// them for its whole life, so its coroutine needs no strand: no locking and no shared reference
// count on every completion. The first context also runs the acceptor and the housekeeping.
class IoContexts {
public:
    explicit IoContexts(std::size_t count) {
        for (std::size_t i = 0; i < std::max<std::size_t>(count, 1); ++i) {
            contexts_.push_back(std::make_unique<asio::io_context>(1));
            guards_.emplace_back(contexts_.back()->get_executor());  // idle contexts keep running
        }
    }
    asio::io_context& main() { return *contexts_.front(); }
    // Round robin over the contexts, for the next connection. Called by the acceptor only.
    asio::io_context& next() { return *contexts_[next_++ % contexts_.size()]; }
    // Runs every context, the first on the calling thread, until stop().
    void run() {
        std::vector<std::thread> threads;
        for (std::size_t i = 1; i < contexts_.size(); ++i) threads.emplace_back([this, i] { run_one(*contexts_[i]); });
        run_one(*contexts_.front());
        for (auto& t : threads) t.join();
    }
    void stop() {
        for (auto& c : contexts_) c->stop();
    }

private:
    // A handler that throws is a bug; it must not take the server (and every connection) down.
    static void run_one(asio::io_context& context) {
        for (;;) {
            try {
                context.run();
                return;
            } catch (const std::exception& e) {
                detail::log().error("an I/O handler failed: {}", e.what());
            }
        }
    }

    std::vector<std::unique_ptr<asio::io_context>> contexts_;
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards_;
    std::size_t next_ = 0;
};

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, IoContexts& io, detail::HttpContext& ctx) {
    asio::steady_timer backoff(io.main());
    while (!ctx.stopping.load()) {
        auto [ec, socket] = co_await acceptor.async_accept(io.next(), use_tuple);
        if (ec) {
            if (ctx.stopping.load() || ec == asio::error::operation_aborted) co_return;
            detail::log().warn("accept failed: {}", ec.message());
            backoff.expires_after(std::chrono::milliseconds(100));  // e.g. out of file descriptors
            co_await backoff.async_wait(use_tuple);
            continue;
        }
        if (ctx.connections.load() >= ctx.options.max_connections) {
            boost::system::error_code ignored;
            const auto remote = socket.remote_endpoint(ignored);
            socket.close(ignored);
            if (detail::metrics::enabled()) detail::http_metrics().refused(detail::HttpRefusal::connection_limit);
            detail::report_refusal(detail::Bound::connections, detail::Limit::total,
                                   detail::unmapped(remote.address()).to_string());
            continue;
        }
        ++ctx.connections;
        socket.set_option(tcp::no_delay(true), ec);
        auto executor = socket.get_executor();
        asio::co_spawn(executor, detail::serve_connection(std::move(socket), ctx), asio::detached);
    }
}

asio::awaitable<void> expire_sessions(detail::HttpContext& ctx) {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    const auto period = ctx.sessions.expiry_period();
    auto expire = [&ctx] {
        try {
            ctx.sessions.expire();
        } catch (const StoreUnavailable& e) {
            detail::log().debug("session expiry skipped: {}", e.what());  // next round
        }
    };
    while (!ctx.stopping.load()) {
        timer.expires_after(period);
        co_await timer.async_wait(use_tuple);
        if (ctx.store_threads) {
            asio::post(*ctx.store_threads, expire);  // a shared store is not asked from the I/O thread
        } else {
            expire();
        }
    }
}

// Waits for the connections to drain, then stops the I/O threads. Past the grace period the
// remaining connections are closed (their calls see the stream go) and given a moment to unwind:
// a connection's coroutine must not outlive the context it refers to.
asio::awaitable<void> drain(IoContexts& io, detail::HttpContext& ctx) {
    asio::steady_timer timer(io.main());
    auto wait_for_connections = [&](std::chrono::steady_clock::time_point deadline) -> asio::awaitable<void> {
        while (ctx.connections.load() > 0 && std::chrono::steady_clock::now() < deadline) {
            timer.expires_after(std::chrono::milliseconds(20));
            co_await timer.async_wait(use_tuple);
        }
    };
    co_await wait_for_connections(std::chrono::steady_clock::now() + ctx.options.shutdown_grace);
    if (ctx.connections.load() > 0) {
        detail::log().warn("{} connections still open after the shutdown grace period; closing them",
                           ctx.connections.load());
        ctx.close_connections(false);
        co_await wait_for_connections(std::chrono::steady_clock::now() + std::chrono::seconds(2));
    }
    io.stop();
}

// The endpoint's URL at the listening socket.
std::string listening_url(const HttpOptions& options, unsigned short port) {
    const bool v6 = options.host.find(':') != std::string::npos;
    const std::string host = v6 ? "[" + options.host + "]" : options.host;
    return (options.tls_cert_file.empty() ? "http://" : "https://") + host + ":" + std::to_string(port) +
           options.endpoint;
}

tcp::endpoint resolve(asio::io_context& ioc, const HttpOptions& options) {
    tcp::resolver resolver(ioc);
    boost::system::error_code ec;
    auto results = resolver.resolve(options.host, std::to_string(options.port), tcp::resolver::numeric_service, ec);
    if (ec || results.empty()) throw std::runtime_error("cannot resolve " + options.host + ": " + ec.message());
    return results.begin()->endpoint();
}

}  // namespace

int serve_http(Server& server, const HttpOptions& options) {
    if (options.max_header_bytes > kMaxHeaderBytes) {
        throw std::invalid_argument("max_header_bytes is at most " + std::to_string(kMaxHeaderBytes));
    }
    // Before the contexts: connections still pending when they are destroyed unregister from it.
    detail::HttpContext ctx(server, options);
    if (!options.tls_cert_file.empty()) ctx.tls = std::make_unique<detail::TlsContexts>(options);
    IoContexts io(options.io_threads);
    auto& ioc = io.main();
    server.key_ring();  // generate (and report) a key now rather than on the first stream

    std::optional<detail::MetricsListener> operator_port;
    const auto connections_gauge = detail::metrics::registry()
                                       .family("mcp_http_connections_open", "HTTP connections open on the MCP endpoint",
                                               detail::metrics::Type::gauge)
                                       .callback({}, [&ctx] { return static_cast<double>(ctx.connections.load()); });
    if (options.metrics_port != 0) {
        operator_port.emplace(ioc, ctx);
        operator_port->start();
        detail::log().info("metrics, health and readiness on http://{}:{} (/metrics, /healthz, /readyz)",
                           options.metrics_host.find(':') == std::string::npos ? options.metrics_host
                                                                               : "[" + options.metrics_host + "]",
                           operator_port->port());
    }

    tcp::acceptor acceptor(ioc);
    const auto endpoint = resolve(ioc, options);
    boost::system::error_code ec;
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        throw std::runtime_error("cannot listen on " + options.host + ":" + std::to_string(options.port) + ": " +
                                 ec.message());
    }
    const auto listening = listening_url(options, acceptor.local_endpoint().port());
    detail::log().info("{} {} serving MCP on {}", server.info().name, server.info().version, listening);
    // The endpoint's URL as clients reach it: configured (behind a proxy), or the socket's.
    const auto url = options.public_url.empty() ? listening : options.public_url;
    if (!options.public_url.empty()) detail::log().info("public URL {}", url);
    if (options.auth.enabled()) {
        if (server.authenticator()) {
            throw std::invalid_argument("an authenticator and OAuth token checks (--auth-*) are exclusive");
        }
        ctx.bearer = std::make_unique<detail::BearerAuth>(options.auth, url);
        ctx.bearer->start();
        detail::log().info("bearer tokens required: issuer {}, resource {}", options.auth.issuer, url);
    }

    std::signal(SIGPIPE, SIG_IGN);
    std::function<void()> stop_serving;
    // SIGHUP: new connections get the certificate and key as the files now hold them.
    asio::signal_set hangup(ioc, SIGHUP);
    std::function<void(boost::system::error_code, int)> on_hangup = [&](boost::system::error_code error, int) {
        if (error) return;
        if (ctx.tls) ctx.tls->reload();
        hangup.async_wait(on_hangup);
    };
    hangup.async_wait(on_hangup);

    // Readiness turns false at the signal; after the drain delay the endpoint stops accepting and
    // the calls in flight get their grace period.
    asio::steady_timer drain_delay(ioc);
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code error, int signal) {
        if (error) return;
        ctx.draining.store(true);
        detail::log().info("signal {}: shutting down{}", signal,
                           options.drain_delay.count() > 0
                               ? " after the drain delay (" + std::to_string(options.drain_delay.count()) + " ms)"
                               : std::string());
        drain_delay.expires_after(options.drain_delay);
        drain_delay.async_wait([&](boost::system::error_code) { stop_serving(); });
    });
    stop_serving = [&] {
        ctx.stopping.store(true);
        boost::system::error_code ignored;
        acceptor.close(ignored);
        hangup.cancel();
        server.begin_shutdown();                  // no new calls; listen streams end
        ctx.sessions.close_standalone_streams();  // GET streams end; POST streams finish with their calls
        ctx.close_connections(true);
        asio::co_spawn(ioc, drain(io, ctx), asio::detached);
    };

    asio::co_spawn(ioc, accept_loop(acceptor, io, ctx), asio::detached);
    asio::co_spawn(ioc, expire_sessions(ctx), asio::detached);
    io.run();

    // What is still running had its grace period: cancel it and give it a moment to notice.
    if (!server.wait_idle(std::chrono::milliseconds(0))) {
        server.cancel_all();
        if (!server.wait_idle(std::chrono::seconds(2))) {
            detail::log().error("calls still running after shutdown ignore their cancellation");
            return 0;
        }
    }
    server.shutdown();
    return 0;
}

}  // namespace mcp
