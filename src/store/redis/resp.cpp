#include "store/redis/resp.hpp"

#include <charconv>
#include <stdexcept>

namespace mcp::detail {

std::string resp_command(const std::vector<std::string>& args) {
    std::string out(1, '*');
    out += std::to_string(args.size());
    out += "\r\n";
    for (const auto& a : args) {
        out += '$';
        out += std::to_string(a.size());
        out += "\r\n";
        out += a;
        out += "\r\n";
    }
    return out;
}

namespace {

std::int64_t number(std::string_view text) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) throw std::runtime_error("RESP: bad number");
    return n;
}

}  // namespace

std::optional<std::string_view> RespParser::line(std::size_t& pos) {
    const auto end = buffer_.find("\r\n", pos);
    if (end == std::string::npos) {
        if (buffer_.size() - pos > 64 * 1024) throw std::runtime_error("RESP: line too long");
        return std::nullopt;
    }
    std::string_view l(buffer_.data() + pos, end - pos);
    pos = end + 2;
    return l;
}

bool RespParser::complete(std::size_t& pos, std::size_t depth) {
    if (depth > limits_.max_depth) throw std::runtime_error("RESP: nested too deep");
    if (pos >= buffer_.size()) return false;
    const char kind = buffer_[pos++];
    auto header = line(pos);
    if (!header) return false;
    switch (kind) {
        case '+':
        case '-': return true;
        case ':': number(*header); return true;
        case '$': {
            const auto len = number(*header);
            if (len == -1) return true;  // nil
            if (len < 0 || static_cast<std::size_t>(len) > limits_.max_bulk)
                throw std::runtime_error("RESP: bad bulk length");
            if (buffer_.size() - pos < static_cast<std::size_t>(len) + 2) return false;
            if (buffer_.compare(pos + static_cast<std::size_t>(len), 2, "\r\n") != 0)
                throw std::runtime_error("RESP: bulk not terminated");
            pos += static_cast<std::size_t>(len) + 2;
            return true;
        }
        case '*': {
            const auto count = number(*header);
            if (count == -1) return true;  // nil array
            if (count < 0 || static_cast<std::size_t>(count) > limits_.max_elements)
                throw std::runtime_error("RESP: bad array length");
            for (std::int64_t i = 0; i < count; ++i) {
                if (!complete(pos, depth + 1)) return false;
            }
            return true;
        }
        default: throw std::runtime_error("RESP: unknown type byte");
    }
}

RespValue RespParser::parse(std::size_t& pos) {
    const char kind = buffer_[pos++];
    const auto header = *line(pos);
    RespValue v;
    switch (kind) {
        case '+':
            v.type = RespValue::Type::simple;
            v.text = header;
            break;
        case '-':
            v.type = RespValue::Type::error;
            v.text = header;
            break;
        case ':':
            v.type = RespValue::Type::integer;
            v.integer = number(header);
            break;
        case '$': {
            const auto len = number(header);
            if (len == -1) break;  // nil
            v.type = RespValue::Type::bulk;
            v.text.assign(buffer_, pos, static_cast<std::size_t>(len));
            pos += static_cast<std::size_t>(len) + 2;
            break;
        }
        default: {  // '*', checked by complete()
            const auto count = number(header);
            if (count == -1) break;  // nil array
            v.type = RespValue::Type::array;
            v.elements.reserve(static_cast<std::size_t>(count));
            for (std::int64_t i = 0; i < count; ++i) v.elements.push_back(parse(pos));
        }
    }
    return v;
}

std::optional<RespValue> RespParser::next() {
    std::size_t end = consumed_;
    if (!complete(end, 0)) return std::nullopt;  // parse again from the same place later
    std::size_t pos = consumed_;
    auto value = parse(pos);
    consumed_ = pos;
    if (consumed_ > 64 * 1024 && consumed_ * 2 > buffer_.size()) {  // drop what was parsed
        buffer_.erase(0, consumed_);
        consumed_ = 0;
    }
    return value;
}

}  // namespace mcp::detail
