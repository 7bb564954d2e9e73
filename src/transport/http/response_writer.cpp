#include "transport/http/response_writer.hpp"

#include "transport/http/cors.hpp"
#include "transport/http/http_metrics.hpp"

#include "net/sse_writer.hpp"
#include "util/log.hpp"

#include <mcp/protocol/jsonrpc.hpp>

#include <fmt/format.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <optional>

namespace mcp::detail {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using namespace asio::experimental::awaitable_operators;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

namespace {

// Completes when the client closed the connection. Bytes of a pipelined next request make a
// close undetectable until they are read, so then it just waits to be cancelled.
asio::awaitable<void> peer_gone(HttpStream& stream) {
    auto& socket = stream.socket();
    co_await socket.async_wait(asio::ip::tcp::socket::wait_read, use_tuple);
    boost::system::error_code ec;
    if (socket.available(ec) == 0 || ec) co_return;
    asio::steady_timer forever(co_await asio::this_coro::executor, asio::steady_timer::time_point::max());
    co_await forever.async_wait(use_tuple);
}

void abandon(Outbox& outbox, std::stop_source& cancel) {
    outbox.detach();
    cancel.request_stop();  // nothing, for a source without a state
}

// A header value must not end the header early (CR or LF): anything after it is dropped.
std::string_view one_line(std::string_view value) { return value.substr(0, value.find_first_of("\r\n")); }

// Heads are formatted into a std::string or a WholeResponse's HeadBuffer.
template <class Head>
void put(Head& head, std::string_view text) {
    head.append(text.data(), text.data() + text.size());
}

// The status line, the Server header and `headers`.
template <class Head>
void head_start(Head& head, unsigned status, const Request& request, const HeaderList& headers) {
    put(head, request.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
    put(head, fmt::format_int(status).c_str());
    put(head, " ");
    const auto reason = http::obsolete_reason(static_cast<http::status>(status));
    put(head, std::string_view(reason.data(), reason.size()));
    put(head, "\r\nServer: mcp-cpp\r\n");
    for (const auto& [name, value] : headers) {
        put(head, one_line(name));
        put(head, ": ");
        put(head, one_line(value));
        put(head, "\r\n");
    }
}

// The Connection header where the default does not say it, and the blank line. `keep_alive`:
// whether the connection may serve another request after this response.
template <class Head>
void head_end(Head& head, const Request& request, bool keep_alive) {
    // HTTP/1.1 keeps the connection unless told otherwise; HTTP/1.0 closes it unless told.
    if (request.version() >= 11 && !keep_alive) put(head, "Connection: close\r\n");
    if (request.version() < 11 && keep_alive) put(head, "Connection: keep-alive\r\n");
    put(head, "\r\n");
}

template <class Head>
void response_head(Head& head, unsigned status, const Request& request, std::string_view content_type,
                   std::size_t length, const HeaderList& headers) {
    head_start(head, status, request, headers);
    if (length > 0) {
        put(head, "Content-Type: ");
        put(head, content_type);
        put(head, "\r\n");
    }
    put(head, "Content-Length: ");
    put(head, fmt::format_int(length).c_str());
    put(head, "\r\n");
    head_end(head, request, request.keep_alive());
}

// HTTP/1.0 has no chunked coding (RFC 9112 §6.1): an event stream to an HTTP/1.0 client is sent
// as it comes, and its end is the connection's close.
bool chunked(const Request& request) { return request.version() >= 11; }

// A response to HEAD ends at its head, whatever its status (RFC 9110 §9.3.2): its headers say
// what a GET would have had, the body is not sent.
bool head_only(const Request& request) { return request.method() == http::verb::head; }

// Bytes of an event stream as they go out: one chunk of a chunked body (its size line, kept here
// until the write ends, the data and a CRLF), or the data alone to an HTTP/1.0 client.
class StreamPiece {
public:
    StreamPiece(bool chunked, std::string_view data)
        : size_line_(chunked ? fmt::format("{:x}\r\n", data.size()) : std::string()), data_(data), chunked_(chunked) {}
    WriteBuffers buffers() const {
        static constexpr std::string_view crlf = "\r\n";
        if (!chunked_) return {asio::buffer(data_), {}, {}};
        return {asio::buffer(size_line_), asio::buffer(data_), asio::buffer(crlf)};
    }

private:
    std::string size_line_;
    std::string_view data_;
    bool chunked_;
};

constexpr std::string_view kLastChunk = "0\r\n\r\n";

}  // namespace

HeaderList header_list(std::string name, std::string value) { return {{std::move(name), std::move(value)}}; }

WholeResponse::WholeResponse(unsigned status, const Request& request, std::string body, std::string_view content_type,
                             const HeaderList& headers, const HttpContext& ctx)
    : status_(status), body_(std::move(body)), head_only_(head_only(request)) {
    auto cors = cors_headers(request, ctx.options);
    if (cors.empty()) {
        response_head(head_, status, request, content_type, body_.size(), headers);
    } else {
        HeaderList all = headers;
        all.insert(all.end(), std::make_move_iterator(cors.begin()), std::make_move_iterator(cors.end()));
        response_head(head_, status, request, content_type, body_.size(), all);
    }
}

WriteBuffers WholeResponse::buffers() const {
    return {asio::buffer(head_.view()), asio::buffer(body_.data(), head_only_ ? 0 : body_.size()), {}};
}

void HeadBuffer::append(const char* first, const char* last) {
    const auto n = static_cast<std::size_t>(last - first);
    if (heap_.empty() && size_ + n <= in_place_.size()) {
        std::copy(first, last, in_place_.begin() + static_cast<std::ptrdiff_t>(size_));
        size_ += n;
        return;
    }
    if (heap_.empty()) heap_.assign(in_place_.data(), size_);
    heap_.append(first, last);
}

std::string_view HeadBuffer::view() const {
    return heap_.empty() ? std::string_view(in_place_.data(), size_) : std::string_view(heap_);
}

bool WholeResponse::written(const boost::system::error_code& ec, std::size_t n) const {
    if (metrics::enabled()) {
        http_metrics().response(status_, n);
        if (ec == boost::beast::error::timeout) http_metrics().refused(HttpRefusal::write_timeout);
    }
    return !ec;
}

WholeResponse error_response(const Request& request, unsigned status, int code, std::string_view message,
                             const HttpContext& ctx, const HeaderList& headers, const boost::json::value& id) {
    log().debug("{} {}: {} {}", std::string_view(request.method_string().data(), request.method_string().size()),
                printable(std::string_view(request.target().data(), request.target().size())), status,
                printable(message));
    auto body = boost::json::serialize(jsonrpc::make_error(id, code, message));
    return {status, request, std::move(body), "application/json", headers, ctx};
}

asio::awaitable<std::tuple<boost::system::error_code, std::size_t>> start_write(HttpStream& stream,
                                                                                const WholeResponse& response,
                                                                                const HttpContext& ctx) {
    stream.expires_after(ctx.options.write_timeout);
    return asio::async_write(stream, response.buffers(), use_tuple);
}

std::string format_response_head(unsigned status, const Request& request, std::string_view content_type,
                                 std::size_t length, const HeaderList& headers) {
    std::string head;
    response_head(head, status, request, content_type, length, headers);
    return head;
}

std::string format_event_stream_head(const Request& request, const HeaderList& headers) {
    std::string head;
    head_start(head, 200, request, headers);
    put(head, "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\nX-Accel-Buffering: no\r\n");
    if (chunked(request)) put(head, "Transfer-Encoding: chunked\r\n");
    head_end(head, request, chunked(request) && request.keep_alive());
    return head;
}

asio::awaitable<bool> write_response(HttpStream& stream, const Request& request, unsigned status, std::string body,
                                     std::string_view content_type, const HeaderList& headers, const HttpContext& ctx) {
    const WholeResponse response(status, request, std::move(body), content_type, headers, ctx);
    auto [ec, n] = co_await start_write(stream, response, ctx);
    co_return response.written(ec, n);
}

asio::awaitable<bool> write_error(HttpStream& stream, const Request& request, unsigned status, int code,
                                  std::string_view message, const HttpContext& ctx, const HeaderList& headers,
                                  const boost::json::value& id) {
    const WholeResponse response = error_response(request, status, code, message, ctx, headers, id);
    auto [ec, n] = co_await start_write(stream, response, ctx);
    co_return response.written(ec, n);
}

asio::awaitable<bool> deliver(HttpStream& stream, const Request& request, const std::shared_ptr<Outbox>& outbox,
                              std::stop_source cancel, const HeaderList& headers, const HttpContext& ctx) {
    // However this ends, even destroyed with its I/O context, the outbox lets go of that context.
    struct Release {
        Outbox& outbox;
        ~Release() { outbox.release_consumer(); }
    } release{*outbox};
    std::optional<ResponseHead> ready;
    while (!(ready = outbox->head())) {
        auto which = co_await (outbox->wait() || peer_gone(stream));
        if (which.index() == 1) {
            abandon(*outbox, cancel);
            co_return false;
        }
    }
    const ResponseHead& head = *ready;
    HeaderList all = headers;
    all.insert(all.end(), head.headers.begin(), head.headers.end());

    if (head.kind != ResponseHead::Kind::event_stream) {
        bool finished = false;
        std::string body = outbox->take(finished);
        while (!finished) {
            if (outbox->detached()) co_return false;
            co_await outbox->wait();
            body += outbox->take(finished);
        }
        const WholeResponse response(head.status, request, std::move(body), "application/json", all, ctx);
        auto [ec, n] = co_await start_write(stream, response, ctx);
        co_return response.written(ec, n) && request.keep_alive();
    }

    for (auto& h : cors_headers(request, ctx.options)) all.push_back(std::move(h));
    const std::string stream_head = format_event_stream_head(request, all);
    const WriteBuffers head_buffers{asio::buffer(stream_head), {}, {}};
    stream.expires_after(ctx.options.write_timeout);
    const bool counting = metrics::enabled();
    std::optional<metrics::GaugeScope> open;
    if (counting) open.emplace(&http_metrics().sse_streams);
    if (auto [ec, n] = co_await asio::async_write(stream, head_buffers, use_tuple); ec) {
        abandon(*outbox, cancel);
        co_return false;
    } else if (counting) {
        http_metrics().response(200, n);
    }

    asio::steady_timer keepalive(co_await asio::this_coro::executor);
    while (true) {
        bool finished = false;
        std::string bytes = outbox->take(finished);
        if (outbox->detached()) {  // cut off by the producer: the client fell too far behind
            abandon(*outbox, cancel);
            co_return false;
        }
        if (!bytes.empty()) {
            const StreamPiece piece(chunked(request), bytes);
            stream.expires_after(ctx.options.write_timeout);
            if (auto [ec, n] = co_await asio::async_write(stream, piece.buffers(), use_tuple); ec) {
                if (counting && ec == boost::beast::error::timeout) http_metrics().refused(HttpRefusal::write_timeout);
                abandon(*outbox, cancel);
                co_return false;
            } else if (counting) {
                http_metrics().bytes_out.add(n);
            }
        }
        if (finished) {
            if (!chunked(request)) co_return false;  // the close ends the body
            stream.expires_after(ctx.options.write_timeout);
            const WriteBuffers last_chunk{asio::buffer(kLastChunk), {}, {}};
            auto [ec, n] = co_await asio::async_write(stream, last_chunk, use_tuple);
            stream.expires_never();
            co_return !ec && request.keep_alive() && !ctx.stopping.load();
        }
        keepalive.expires_after(ctx.options.keepalive_interval);
        auto which = co_await (outbox->wait() || keepalive.async_wait(asio::use_awaitable) || peer_gone(stream));
        if (which.index() == 2) {
            abandon(*outbox, cancel);
            co_return false;
        }
        if (which.index() == 1) {
            const std::string ping = net::sse_comment();
            const StreamPiece piece(chunked(request), ping);
            stream.expires_after(ctx.options.write_timeout);
            if (auto [ec, n] = co_await asio::async_write(stream, piece.buffers(), use_tuple); ec) {
                abandon(*outbox, cancel);
                co_return false;
            }
        }
    }
}

}  // namespace mcp::detail
