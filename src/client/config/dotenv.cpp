#include "client/config/dotenv.hpp"

#include "util/ascii.hpp"

#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kBlank = " \t";

bool key_char(char c, bool first) {
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    return letter || (!first && ((c >= '0' && c <= '9') || c == '.' || c == '-'));
}

class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    std::vector<std::pair<std::string, std::string>> read() {
        std::vector<std::pair<std::string, std::string>> out;
        while (at_ < text_.size()) {
            const auto line = next_line();
            auto rest = trim(line);
            if (rest.empty() || rest.front() == '#') continue;
            if (rest.starts_with("export") && rest.size() > 6 && kBlank.find(rest[6]) != std::string_view::npos)
                rest = trim(rest.substr(6));
            const auto eq = rest.find('=');
            if (eq == std::string_view::npos) fail("expected KEY=VALUE");
            const auto key = trim(rest.substr(0, eq));
            if (key.empty() || !key_char(key.front(), true))
                fail("the name \"" + std::string(key) + "\" is no variable name");
            for (char c : key) {
                if (!key_char(c, false)) fail("the name \"" + std::string(key) + "\" is no variable name");
            }
            // The value starts after '=' and may run over the next lines when quoted.
            at_ = static_cast<std::size_t>(rest.data() + eq + 1 - text_.data());
            out.emplace_back(std::string(key), value());
        }
        return out;
    }

private:
    // Moves to the next line; returns it (without its newline) and leaves at_ past it.
    std::string_view next_line() {
        const auto start = at_;
        ++line_;
        auto end = text_.find('\n', at_);
        if (end == std::string_view::npos) end = text_.size();
        at_ = end + 1;
        auto line = text_.substr(start, end - start);
        if (line.ends_with('\r')) line.remove_suffix(1);
        return line;
    }

    std::string value() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
        if (at_ < text_.size() && (text_[at_] == '"' || text_[at_] == '\'')) return quoted(text_[at_]);
        auto end = text_.find('\n', at_);
        if (end == std::string_view::npos) end = text_.size();
        auto raw = text_.substr(at_, end - at_);
        at_ = end + 1;
        if (raw.ends_with('\r')) raw.remove_suffix(1);
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] == '#' && (i == 0 || raw[i - 1] == ' ' || raw[i - 1] == '\t')) {
                raw = raw.substr(0, i);
                break;
            }
        }
        return std::string(trim(raw));
    }

    std::string quoted(char quote) {
        const auto opened_on = line_;
        std::string out;
        for (++at_; at_ < text_.size(); ++at_) {
            const char c = text_[at_];
            if (c == quote) {
                ++at_;
                rest_of_line();
                return out;
            }
            if (c == '\n') ++line_;
            if (c == '\\' && quote == '"' && at_ + 1 < text_.size()) {
                const char e = text_[++at_];
                switch (e) {
                    case 'n': out += '\n'; break;
                    case 'r': out += '\r'; break;
                    case 't': out += '\t'; break;
                    case '"':
                    case '\\': out += e; break;
                    default: out += '\\'; out += e;
                }
                continue;
            }
            out += c;
        }
        line_ = opened_on;
        fail(std::string("the ") + quote + " opened here is never closed");
    }

    // After a closing quote: spaces and a comment at most.
    void rest_of_line() {
        auto end = text_.find('\n', at_);
        if (end == std::string_view::npos) end = text_.size();
        auto rest = trim(text_.substr(at_, end - at_));
        if (rest.ends_with('\r')) rest = trim(rest.substr(0, rest.size() - 1));
        if (!rest.empty() && rest.front() != '#') fail("unexpected text after the closing quote");
        at_ = end + 1;
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("line " + std::to_string(line_) + ": " + what);
    }

    std::string_view text_;
    std::size_t at_ = 0;
    std::size_t line_ = 0;
};

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_dotenv(std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    return Reader(text).read();
}

}  // namespace mcp::detail
