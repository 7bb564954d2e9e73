#include "client/auth/challenge.hpp"

#include "util/ascii.hpp"

namespace mcp::detail {

namespace {

constexpr std::size_t kMaxChallenges = 16;
constexpr std::size_t kMaxParams = 32;
constexpr std::size_t kMaxValue = 4096;

bool is_tchar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token68_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("-._~+/").find(c) != std::string_view::npos;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = ascii_lower(c);
    return out;
}

class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    bool done() const { return i_ >= s_.size(); }
    void skip_ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    }
    // Spaces and commas.
    void skip_separators() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == ',')) ++i_;
    }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    std::size_t pos() const { return i_; }
    void seek(std::size_t i) { i_ = i; }
    void advance() { ++i_; }
    std::string_view token() {
        const auto start = i_;
        while (i_ < s_.size() && is_tchar(s_[i_])) ++i_;
        return s_.substr(start, i_ - start);
    }
    // After the opening quote; nothing when it does not end.
    std::optional<std::string> quoted() {
        std::string out;
        while (i_ < s_.size()) {
            const char c = s_[i_++];
            if (c == '"') return out;
            if (c == '\\') {
                if (i_ >= s_.size()) return std::nullopt;
                out += s_[i_++];
            } else {
                out += c;
            }
            if (out.size() > kMaxValue) return std::nullopt;
        }
        return std::nullopt;
    }

private:
    std::string_view s_;
    std::size_t i_ = 0;
};

// One field value's challenges, appended to `out`.
void parse_value(std::string_view value, std::vector<Challenge>& out) {
    Reader r(value);
    r.skip_separators();
    while (!r.done() && out.size() < kMaxChallenges) {
        const auto scheme = r.token();
        if (scheme.empty()) return;  // not a challenge: give up on the rest of this value
        Challenge challenge;
        challenge.scheme = lower(scheme);
        r.skip_ws();
        // token68, or auth-params, or nothing.
        const auto start = r.pos();
        bool params = false;
        while (!r.done()) {
            r.skip_separators();
            const auto at = r.pos();
            const auto name = r.token();
            r.skip_ws();
            if (name.empty() || r.peek() != '=') {
                r.seek(at);
                break;
            }
            r.advance();  // '='
            // "token68=" ends with '=': a name followed by '=' then a separator or the end.
            r.skip_ws();
            std::string v;
            if (r.peek() == '"') {
                r.advance();
                auto q = r.quoted();
                if (!q) return;
                v = std::move(*q);
            } else {
                v = std::string(r.token());
                if (v.empty() && !params && at == start) {
                    // a token68 that ends in '=' ("abc=" or "abc=="): take it whole
                    r.seek(start);
                    break;
                }
            }
            params = true;
            if (challenge.params.size() < kMaxParams && v.size() <= kMaxValue)
                challenge.params.emplace_back(lower(name), std::move(v));
            r.skip_ws();
            if (r.peek() != ',') break;
            // A comma: another param follows, or the next challenge does (a token then a space or
            // end, not '=').
            r.advance();
            r.skip_separators();
            const auto look = r.pos();
            r.token();
            r.skip_ws();
            const bool another_param = r.peek() == '=';
            r.seek(look);
            if (!another_param) break;
        }
        if (!params && r.pos() == start) {
            const auto t = r.pos();
            std::string t68;
            while (!r.done() && is_token68_char(r.peek())) {
                t68 += r.peek();
                r.advance();
            }
            while (!r.done() && r.peek() == '=') {
                t68 += '=';
                r.advance();
            }
            if (t68.size() > kMaxValue) t68.clear();
            challenge.token68 = std::move(t68);
            if (r.pos() == t) r.seek(start);
        }
        out.push_back(std::move(challenge));
        r.skip_separators();
    }
}

}  // namespace

std::optional<std::string> Challenge::param(std::string_view name) const {
    for (const auto& [n, v] : params) {
        if (ascii_iequals(n, name)) return v;
    }
    return std::nullopt;
}

std::vector<Challenge> parse_www_authenticate(const std::vector<std::string_view>& values) {
    std::vector<Challenge> out;
    for (const auto value : values) {
        if (out.size() >= kMaxChallenges) break;
        parse_value(value.substr(0, 64 * 1024), out);
    }
    return out;
}

std::optional<BearerChallenge> bearer_challenge(const std::vector<std::string_view>& values) {
    std::optional<BearerChallenge> out;
    bool dpop = false;
    for (const auto& c : parse_www_authenticate(values)) {
        if (c.scheme != "bearer" && c.scheme != "dpop") continue;
        dpop = dpop || c.scheme == "dpop";
        if (out) continue;
        out.emplace();
        out->resource_metadata = c.param("resource_metadata").value_or("");
        out->scope = c.param("scope").value_or("");
        out->error = c.param("error").value_or("");
    }
    if (out) out->dpop = dpop;
    return out;
}

}  // namespace mcp::detail
