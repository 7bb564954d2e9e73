#include "client/http/response_body.hpp"

#include "net/http_error.hpp"
#include "util/ascii.hpp"

namespace mcp::detail {

namespace asio = boost::asio;

bool has_media_type(const net::HttpHeaders& headers, std::string_view media_type) {
    auto value = headers.get("Content-Type").value_or("");
    value = value.substr(0, value.find(';'));
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    return ascii_iequals(value, media_type);
}

asio::awaitable<std::string> read_bounded(net::HttpStream& stream, std::size_t limit) {
    std::string body;
    try {
        while (auto chunk = co_await stream.next_chunk()) {
            body.append(chunk->substr(0, limit - body.size()));
            if (body.size() >= limit) {
                stream.cancel();
                break;
            }
        }
    } catch (const net::HttpError&) {  // what came is what there is
    }
    co_return body;
}

asio::awaitable<StreamEnd> read_events(net::HttpStream& stream, SseCursor& cursor, std::size_t max_event_bytes,
                                       const std::function<void(net::SseEvent&&)>& on_event) {
    StreamEnd end;
    net::SseParser parser(
        [&](net::SseEvent&& event) {
            end.progress = true;
            on_event(std::move(event));
        },
        {.max_line_bytes = max_event_bytes, .max_event_bytes = max_event_bytes});
    const auto take_position = [&] {
        if (!parser.last_event_id().empty() && parser.last_event_id() != cursor.last_event_id) {
            cursor.last_event_id = parser.last_event_id();
            end.progress = true;
        }
        if (parser.retry()) cursor.retry = parser.retry();
    };
    try {
        while (auto chunk = co_await stream.next_chunk()) {
            parser.feed(*chunk);
            take_position();
        }
        end.how = StreamEnd::How::ended;
    } catch (const net::SseError& e) {
        stream.cancel();
        end = {StreamEnd::How::over_limit, e.what(), end.progress};
    } catch (const net::HttpError& e) {
        end = {e.kind() == net::HttpErrorKind::cancelled ? StreamEnd::How::stopped : StreamEnd::How::cut, e.what(),
               end.progress};
    }
    take_position();
    co_return end;
}

}  // namespace mcp::detail
