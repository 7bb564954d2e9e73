#include "net/sse_parser.hpp"

#include <algorithm>
#include <charconv>

namespace mcp::net {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kDefaultType = "message";

}  // namespace

SseParser::SseParser(EventHandler on_event, SseLimits limits) : on_event_(std::move(on_event)), limits_(limits) {}

void SseParser::fail(const std::string& why) {
    failed_ = true;
    throw SseError(why);
}

void SseParser::feed(std::string_view bytes) {
    if (failed_) throw SseError("the event stream failed before");
    while (!bytes.empty()) {
        if (after_cr_) {
            after_cr_ = false;
            if (bytes.front() == '\n') {
                bytes.remove_prefix(1);
                continue;
            }
        }
        const auto end = bytes.find_first_of("\r\n");
        const auto piece = bytes.substr(0, end);
        if (line_.size() + piece.size() > limits_.max_line_bytes) {
            fail("an event stream line is over " + std::to_string(limits_.max_line_bytes) + " bytes");
        }
        if (end == std::string_view::npos) {
            line_.append(piece);
            return;
        }
        after_cr_ = bytes[end] == '\r';
        bytes.remove_prefix(end + 1);
        if (line_.empty()) {
            take_line(piece);
        } else {
            line_.append(piece);
            const auto line = std::move(line_);
            line_.clear();
            take_line(line);
        }
    }
}

void SseParser::take_line(std::string_view line) {
    if (at_stream_start_) {
        at_stream_start_ = false;
        if (line.starts_with(kBom)) line.remove_prefix(kBom.size());
    }
    if (line.empty()) {
        dispatch();
        return;
    }
    if (line.front() == ':') return;  // a comment
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
        take_field(line, {});
        return;
    }
    auto value = line.substr(colon + 1);
    if (value.starts_with(' ')) value.remove_prefix(1);
    take_field(line.substr(0, colon), value);
}

void SseParser::take_field(std::string_view field, std::string_view value) {
    if (field == "event") {
        type_.assign(value);
    } else if (field == "data") {
        data_.append(value);
        data_.push_back('\n');
    } else if (field == "id") {
        if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
    } else if (field == "retry") {
        const bool digits =
            !value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
        std::chrono::milliseconds::rep ms = 0;  // too many digits to hold: ignored too
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
        if (digits && ec == std::errc() && end == value.data() + value.size()) retry_ = std::chrono::milliseconds(ms);
    }
    // Counted as delivered: the data without the line end dispatch drops, and the type it gets.
    const auto data_bytes = data_.empty() ? 0 : data_.size() - 1;
    const auto type_bytes = type_.empty() ? kDefaultType.size() : type_.size();
    if (data_bytes + type_bytes > limits_.max_event_bytes) {
        fail("an event stream event is over " + std::to_string(limits_.max_event_bytes) + " bytes");
    }
}

void SseParser::dispatch() {
    if (data_.empty()) {
        type_.clear();
        return;
    }
    data_.pop_back();  // the LF after the last data line
    SseEvent event{type_.empty() ? std::string(kDefaultType) : std::move(type_), std::move(data_), last_id_};
    type_.clear();
    data_.clear();
    on_event_(std::move(event));
}

}  // namespace mcp::net
