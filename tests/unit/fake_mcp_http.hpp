#pragma once
// Fake MCP servers over HTTP for the client's tests, on the loopback test server
// (http_test_server.hpp): each connection runs a route per request, and every request is kept so
// that a test can look at what the client sent (and when). The answers are written as bytes: JSON,
// SSE heads and events, well-formed or not.
#include "http_test_server.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fake {

using Clock = std::chrono::steady_clock;

// The JSON-RPC message a POST carries (empty method for a response or a body that is no JSON).
struct Rpc {
    std::string method;
    boost::json::value id;  // null for a notification
    boost::json::object params;
};
Rpc rpc_of(const mcp::test::ReceivedRequest& request);

// A whole response with a JSON body (Content-Length), and more fields if given (each ending in CRLF).
std::string json(int status, const boost::json::value& body, std::string_view fields = {});
std::string result(const boost::json::value& id, const boost::json::value& value, std::string_view fields = {});
std::string accepted();
// The head of an SSE response whose body lasts until the connection closes.
std::string sse_head(std::string_view fields = {});
// One event: `data` on one line (or none), and the fields given.
std::string event(std::string_view data, std::string_view id = {}, std::optional<int> retry = {},
                  std::string_view type = {});
std::string message(const boost::json::value& jsonrpc, std::string_view id = {});

boost::json::object initialize_result(std::string_view version);
boost::json::object discover_result();
boost::json::object text_result(std::string_view text);

struct Seen {
    mcp::test::ReceivedRequest request;
    Clock::time_point at;
};

class Server {
public:
    // Answers one request on `peer`; false ends the connection (the client sees it close).
    using Route = std::function<bool(mcp::test::Peer& peer, const mcp::test::ReceivedRequest& request)>;

    explicit Server(Route route);
    ~Server();

    std::string url(std::string_view path = "/mcp") const { return server_->url(path); }
    std::uint16_t port() const { return server_->port(); }
    // Every request so far, in arrival order.
    std::vector<Seen> seen() const;
    // Those whose request line starts with `start` ("GET", "POST /messages").
    std::vector<Seen> seen(std::string_view start) const;

private:
    mutable std::mutex mutex_;
    std::vector<Seen> seen_;
    Route route_;
    std::unique_ptr<mcp::test::TestServer> server_;
};

}  // namespace fake
