#include "protocol/plain_result.hpp"

namespace mcp::jsonrpc {

namespace {

constexpr std::string_view kVersionThenId = R"("jsonrpc":"2.0","id":)";
constexpr std::string_view kResult = R"("result":)";
// Ids the client writes fit in 18 digits; a longer number is left to the general path.
constexpr std::size_t kMaxIdDigits = 18;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A JSON integer at the start of `text`, without sign or leading zero.
std::optional<std::int64_t> read_id(std::string_view text, std::size_t& length) {
    length = 0;
    while (length < text.size() && length <= kMaxIdDigits && is_digit(text[length])) ++length;
    if (length == 0 || length > kMaxIdDigits || (length > 1 && text[0] == '0')) return std::nullopt;
    std::int64_t id = 0;
    for (std::size_t i = 0; i < length; ++i) id = id * 10 + (text[i] - '0');
    return id;
}

std::string_view trim_end(std::string_view text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n'))
        text.remove_suffix(1);
    return text;
}

// {"jsonrpc":"2.0","id":N,"result":R}
std::optional<PlainResult> version_first(std::string_view body) {
    if (!body.starts_with(kVersionThenId)) return std::nullopt;
    body.remove_prefix(kVersionThenId.size());
    std::size_t digits = 0;
    const auto id = read_id(body, digits);
    if (!id || digits >= body.size() || body[digits] != ',') return std::nullopt;
    body.remove_prefix(digits + 1);
    if (!body.starts_with(kResult)) return std::nullopt;
    body.remove_prefix(kResult.size());
    return PlainResult{*id, body};
}

// {"result":R,"jsonrpc":"2.0","id":N}
std::optional<PlainResult> result_first(std::string_view body) {
    if (!body.starts_with(kResult)) return std::nullopt;
    body.remove_prefix(kResult.size());
    std::size_t digits = 0;
    while (digits < body.size() && digits <= kMaxIdDigits && is_digit(body[body.size() - 1 - digits])) ++digits;
    std::size_t length = 0;
    const auto id = read_id(body.substr(body.size() - digits), length);
    if (!id || length != digits) return std::nullopt;
    body.remove_suffix(digits);
    if (!body.ends_with(kVersionThenId) || body.size() < kVersionThenId.size() + 1) return std::nullopt;
    body.remove_suffix(kVersionThenId.size());
    if (body.back() != ',') return std::nullopt;
    body.remove_suffix(1);
    return PlainResult{*id, body};
}

}  // namespace

std::optional<PlainResult> match_plain_result(std::string_view text) {
    text = trim_end(text);
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') return std::nullopt;
    const std::string_view body = text.substr(1, text.size() - 2);
    auto match = version_first(body);
    if (!match) match = result_first(body);
    if (!match || match->result.empty()) return std::nullopt;
    return match;
}

}  // namespace mcp::jsonrpc
