#pragma once
// Writing responses on a connection: fixed ones, and the body an Outbox produces (JSON or a
// stream of events), while watching for the client going away.
#include "transport/http/http_context.hpp"
#include "transport/http/outbox.hpp"

#include <mcp/server/interceptor.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <cstddef>
#include <stop_token>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace mcp::detail {

// One header. (GCC 12 miscompiles braced lists of string literals inside co_await expressions,
// "array used as initializer", so coroutines build header lists through this function.)
HeaderList header_list(std::string name, std::string value);

// The head of a complete response with a body of `length` bytes, formatted by hand: Beast's
// serializer costs more than the rest of a small JSON response's user-space work. A CR or LF in a
// header name or value cuts it there.
std::string format_response_head(unsigned status, const Request& request, std::string_view content_type,
                                 std::size_t length, const HeaderList& headers);

// The head of a stream of Server-Sent Events (200, not to be cached or buffered by a proxy):
// chunked to HTTP/1.1, unframed to HTTP/1.0, whose connection then ends with the stream.
std::string format_event_stream_head(const Request& request, const HeaderList& headers);

// Every write of a response has this one buffer type, so Asio's composed write is compiled once per
// stream layer (TCP and TLS) rather than once per shape of message: that was most of the writer's
// compile time. Unused places hold empty buffers.
using WriteBuffers = std::array<boost::asio::const_buffer, 3>;

// A response's head, formatted in place: on the heap only when it is longer than most.
class HeadBuffer {
public:
    void append(const char* first, const char* last);
    std::string_view view() const;

private:
    std::array<char, 256> in_place_{};
    std::size_t size_ = 0;
    std::string heap_;  // the whole head, once it outgrew in_place_
};

// A response with a whole body, ready to go: its head formatted (with the CORS headers), its body
// kept; to HEAD, its head only.
class WholeResponse {
public:
    WholeResponse(unsigned status, const Request& request, std::string body, std::string_view content_type,
                  const HeaderList& headers, const HttpContext& ctx);
    WriteBuffers buffers() const;
    // Counts the response; whether it went out whole.
    bool written(const boost::system::error_code& ec, std::size_t n) const;

private:
    unsigned status_;
    HeadBuffer head_;
    std::string body_;
    bool head_only_;
};

// The JSON-RPC code of transport-level failures (the spec's generic server error).
inline constexpr int kServerError = -32000;

// A JSON-RPC error for failures before the core sees the message (logged at debug): it answers
// `id`, the request's when it could be read, else null.
WholeResponse error_response(const Request& request, unsigned status, int code, std::string_view message,
                             const HttpContext& ctx, const HeaderList& headers = {},
                             const boost::json::value& id = nullptr);

// Starts writing `response`, which must live until the write completes, within the write timeout.
// Not a coroutine: a caller's co_await of it costs no frame of its own.
boost::asio::awaitable<std::tuple<boost::system::error_code, std::size_t>> start_write(HttpStream& stream,
                                                                                       const WholeResponse& response,
                                                                                       const HttpContext& ctx);

// A complete response; to HEAD, its head only. Returns false when the write failed.
boost::asio::awaitable<bool> write_response(HttpStream& stream, const Request& request, unsigned status,
                                            std::string body, std::string_view content_type, const HeaderList& headers,
                                            const HttpContext& ctx);

// error_response, written.
boost::asio::awaitable<bool> write_error(HttpStream& stream, const Request& request, unsigned status, int code,
                                         std::string_view message, const HttpContext& ctx,
                                         const HeaderList& headers = {}, const boost::json::value& id = nullptr);

// Writes what `outbox` produces. If the client leaves first, the outbox is detached and `cancel`
// (2026-07-28: closing the stream cancels the request; a source without a state otherwise) is
// tripped. Returns whether the connection can serve another request.
boost::asio::awaitable<bool> deliver(HttpStream& stream, const Request& request, const std::shared_ptr<Outbox>& outbox,
                                     std::stop_source cancel, const HeaderList& headers, const HttpContext& ctx);

}  // namespace mcp::detail
