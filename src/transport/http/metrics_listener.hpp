#pragma once
// The operator's port (HttpOptions::metrics_port): GET /metrics for Prometheus, /healthz while the
// process serves, /readyz while it should get new work. Apart from the MCP endpoint, so neither
// can be reached through the other.
#include "transport/http/http_context.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <string>
#include <vector>

namespace mcp::detail {

// Why this node should get no new work now; empty when it is ready.
std::vector<std::string> not_ready_reasons(const HttpContext& ctx);

class MetricsListener {
public:
    // Binds the address at once; throws std::runtime_error when it cannot.
    MetricsListener(boost::asio::io_context& ioc, HttpContext& ctx);
    // Accepts on `ioc` until it stops.
    void start();
    unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
    boost::asio::io_context& ioc_;
    HttpContext& ctx_;
    boost::asio::ip::tcp::acceptor acceptor_;
};

}  // namespace mcp::detail
