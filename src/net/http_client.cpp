#include "net/http_client.hpp"

#include "net/client_core.hpp"
#include "net/exchange.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <limits>
#include <stdexcept>

namespace mcp::net {

namespace asio = boost::asio;

namespace {

asio::awaitable<HttpResponse> fetch_on_strand(std::shared_ptr<ClientCore> core, HttpRequest request) {
    const auto exchange = std::make_shared<Exchange>(std::move(core), std::move(request), Exchange::Body::whole);
    co_await exchange->start();
    HttpResponse response{exchange->status(), exchange->headers(), {}};
    // The reader holds the body to its limit.
    response.body = co_await exchange->read_all(std::numeric_limits<std::size_t>::max());
    co_return response;
}

asio::awaitable<std::shared_ptr<Exchange>> open_on_strand(std::shared_ptr<ClientCore> core, HttpRequest request) {
    auto exchange = std::make_shared<Exchange>(std::move(core), std::move(request), Exchange::Body::streamed);
    co_await exchange->start();
    co_return exchange;
}

}  // namespace

HttpClient::HttpClient(asio::io_context& io, HttpClientOptions options) {
    if (options.max_connections_per_origin == 0) {
        throw std::invalid_argument("max_connections_per_origin must be at least 1");
    }
    core_ = std::make_shared<ClientCore>(asio::make_strand(io), std::move(options));
}

HttpClient::~HttpClient() {
    const auto strand = core_->strand;
    asio::post(strand, [core = std::move(core_)] {});  // kept connections close on the strand
}

asio::awaitable<HttpResponse> HttpClient::fetch(HttpRequest request) {
    co_return co_await asio::co_spawn(core_->strand, fetch_on_strand(core_, std::move(request)), asio::use_awaitable);
}

asio::awaitable<HttpStream> HttpClient::open(HttpRequest request) {
    auto exchange =
        co_await asio::co_spawn(core_->strand, open_on_strand(core_, std::move(request)), asio::use_awaitable);
    co_return HttpStream(std::move(exchange));
}

}  // namespace mcp::net
