#include "net/http_stream.hpp"

#include "net/exchange.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::net {

namespace asio = boost::asio;

namespace {

// On the strand, holding the exchange: a caller that goes away mid-read leaves nothing dangling.
asio::awaitable<std::optional<std::string>> next_chunk_of(std::shared_ptr<Exchange> exchange) {
    co_return co_await exchange->next_chunk();
}

asio::awaitable<std::string> read_all_of(std::shared_ptr<Exchange> exchange, std::size_t max_bytes) {
    co_return co_await exchange->read_all(max_bytes);
}

}  // namespace

HttpStream::HttpStream(std::shared_ptr<Exchange> exchange) : exchange_(std::move(exchange)) {}

HttpStream& HttpStream::operator=(HttpStream&& other) noexcept {
    release();
    exchange_ = std::move(other.exchange_);
    return *this;
}

HttpStream::~HttpStream() { release(); }

void HttpStream::release() {
    if (!exchange_) return;
    const auto strand = exchange_->strand();
    asio::post(strand, [exchange = std::move(exchange_)] { exchange->abandon(); });
}

unsigned HttpStream::status() const { return exchange_->status(); }

const HttpHeaders& HttpStream::headers() const { return exchange_->headers(); }

asio::awaitable<std::optional<std::string>> HttpStream::next_chunk() {
    co_return co_await asio::co_spawn(exchange_->strand(), next_chunk_of(exchange_), asio::use_awaitable);
}

asio::awaitable<std::string> HttpStream::read_all(std::size_t max_bytes) {
    co_return co_await asio::co_spawn(exchange_->strand(), read_all_of(exchange_, max_bytes), asio::use_awaitable);
}

void HttpStream::cancel() { exchange_->request_cancel(); }

}  // namespace mcp::net
