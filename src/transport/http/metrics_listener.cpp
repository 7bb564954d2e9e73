#include "transport/http/metrics_listener.hpp"

#include "transport/http/response_writer.hpp"
#include "util/log.hpp"
#include "util/metrics.hpp"
#include "util/metrics_exposition.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include <array>
#include <stdexcept>

namespace mcp::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

namespace {

// A scraper and a probe or two; more connections are closed at once.
constexpr std::size_t kMaxConnections = 32;
constexpr auto kIdleTimeout = std::chrono::seconds(30);
constexpr std::uint32_t kMaxHeadBytes = 8 * 1024;

struct Reply {
    unsigned status;
    std::string body;
    std::string content_type = "text/plain; charset=utf-8";
};

Reply answer(const Request& request, HttpContext& ctx) {
    const std::string_view target(request.target().data(), request.target().size());
    const auto path = target.substr(0, target.find('?'));
    if (path != "/metrics" && path != "/healthz" && path != "/readyz") return {404, "not found\n"};
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
        return {405, "use GET\n"};
    }
    if (path == "/healthz") return {200, "ok\n"};
    if (path == "/readyz") {
        const auto reasons = not_ready_reasons(ctx);
        if (reasons.empty()) return {200, "ready\n"};
        std::string body = "not ready:";
        for (const auto& r : reasons) body.append(" ").append(r).append(";");
        body.back() = '\n';
        return {503, std::move(body)};
    }
    const auto accept = request[http::field::accept];
    const auto format = metrics::format_for(std::string_view(accept.data(), accept.size()));
    return {200, metrics::expose(metrics::registry(), format), std::string(metrics::content_type(format))};
}

asio::awaitable<void> serve(tcp::socket socket, HttpContext& ctx) {
    struct Count {
        std::atomic<std::size_t>& n;
        ~Count() { --n; }
    } count{ctx.metrics_connections};
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer(kMaxHeadBytes + 1024);
    for (;;) {
        RequestParser parser;
        parser.header_limit(kMaxHeadBytes);
        parser.body_limit(1024);
        stream.expires_after(kIdleTimeout);
        auto [ec, n] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (ec) break;
        const Request request = parser.release();
        auto reply = answer(request, ctx);
        const auto head = format_response_head(reply.status, request, reply.content_type, reply.body.size(), {});
        const bool head_only = request.method() == http::verb::head;
        const std::array<asio::const_buffer, 2> buffers{
            asio::buffer(head), asio::buffer(reply.body.data(), head_only ? 0 : reply.body.size())};
        stream.expires_after(kIdleTimeout);
        auto [wec, written] = co_await asio::async_write(stream, buffers, use_tuple);
        if (wec || !request.keep_alive()) break;
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, HttpContext& ctx) {
    for (;;) {
        auto [ec, socket] = co_await acceptor.async_accept(use_tuple);
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
        if (ec) continue;
        if (ctx.metrics_connections.load() >= kMaxConnections) continue;  // the socket closes here
        ++ctx.metrics_connections;
        asio::co_spawn(acceptor.get_executor(), serve(std::move(socket), ctx), asio::detached);
    }
}

tcp::endpoint endpoint_of(const HttpOptions& options) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(options.metrics_host, ec);
    if (ec) throw std::runtime_error("--metrics needs a numeric address, not " + options.metrics_host);
    return {address, options.metrics_port};
}

}  // namespace

std::vector<std::string> not_ready_reasons(const HttpContext& ctx) {
    std::vector<std::string> reasons;
    if (ctx.draining.load()) reasons.emplace_back("draining");
    if (!ctx.sessions.store_reachable()) reasons.emplace_back("store unreachable");
    if (ctx.bearer && !ctx.bearer->ready()) reasons.emplace_back("authorization server keys not loaded");
    return reasons;
}

MetricsListener::MetricsListener(asio::io_context& ioc, HttpContext& ctx) : ioc_(ioc), ctx_(ctx), acceptor_(ioc) {
    const auto endpoint = endpoint_of(ctx.options);
    boost::system::error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        throw std::runtime_error("cannot listen for metrics on " + ctx.options.metrics_host + ":" +
                                 std::to_string(ctx.options.metrics_port) + ": " + ec.message());
    }
}

void MetricsListener::start() {
    metrics::enable();
    asio::co_spawn(ioc_, accept_loop(acceptor_, ctx_), asio::detached);
}

}  // namespace mcp::detail
