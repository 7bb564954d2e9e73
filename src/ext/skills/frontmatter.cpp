#include "ext/skills/frontmatter.hpp"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <yaml.h>

#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp::detail {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("SKILL.md frontmatter: " + what); }

// The text between the opening "---" line and the closing one.
std::string_view frontmatter_block(std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    std::size_t body = 0;
    if (text.starts_with("---\n"))
        body = 4;
    else if (text.starts_with("---\r\n"))
        body = 5;
    else
        fail("SKILL.md must begin with a \"---\" line opening its YAML frontmatter");
    // The first "\n---" followed by spaces or tabs up to the end of its line closes the block.
    for (auto at = text.find("\n---", body - 1); at != std::string_view::npos; at = text.find("\n---", at + 1)) {
        auto rest = at + 4;
        while (rest < text.size() && (text[rest] == ' ' || text[rest] == '\t')) ++rest;
        if (rest != text.size() && text[rest] != '\n' && text.substr(rest, 2) != "\r\n") continue;
        auto end = at;
        if (end > 0 && text[end - 1] == '\r') --end;
        if (end < body) fail("the frontmatter is empty");
        return text.substr(body, end - body);
    }
    fail("no closing \"---\" line");
}

bool all_of(std::string_view s, std::string_view allowed) {
    return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

constexpr std::string_view kDigits = "0123456789";

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool core_float(std::string_view s) {
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    const auto exponent = s.find_first_of("eE");
    if (exponent != std::string_view::npos) {
        auto e = s.substr(exponent + 1);
        if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.remove_prefix(1);
        if (!all_of(e, kDigits)) return false;
        s = s.substr(0, exponent);
    }
    const auto dot = s.find('.');
    if (dot == std::string_view::npos) return all_of(s, kDigits);
    const auto whole = s.substr(0, dot);
    const auto fraction = s.substr(dot + 1);
    if (whole.empty()) return all_of(fraction, kDigits);
    return all_of(whole, kDigits) && (fraction.empty() || all_of(fraction, kDigits));
}

double to_double(std::string_view s) {
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    double d = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(d))
        fail("the number " + std::string(s) + " is out of range");
    return d;
}

// An integer in `base`; one that int64 cannot hold becomes a double, as a JavaScript parser's would.
boost::json::value integer(std::string_view digits, bool negative, int base) {
    std::int64_t i = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i, base);
    if (ec == std::errc() && end == digits.data() + digits.size()) return negative ? -i : i;
    double d = 0;
    for (char c : digits) d = d * base + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    return negative ? -d : d;
}

// The YAML 1.2 core schema's reading of a plain scalar.
boost::json::value resolve_plain(std::string_view s) {
    if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    const bool sign = s[0] == '-' || s[0] == '+';
    if (all_of(s.substr(sign ? 1 : 0), kDigits)) return integer(s.substr(sign ? 1 : 0), s[0] == '-', 10);
    if (s.starts_with("0o") && all_of(s.substr(2), "01234567")) return integer(s.substr(2), false, 8);
    if (s.starts_with("0x") && all_of(s.substr(2), "0123456789abcdefABCDEF")) return integer(s.substr(2), false, 16);
    if (core_float(s)) return to_double(s);
    const auto unsigned_part = s.substr(sign ? 1 : 0);
    if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF" || s == ".nan" || s == ".NaN" ||
        s == ".NAN") {
        fail("the value " + std::string(s) + " has no JSON form");
    }
    return boost::json::string(s);
}

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

boost::json::value scalar_value(const yaml_event_t& event) {
    const std::string_view text(reinterpret_cast<const char*>(event.data.scalar.value), event.data.scalar.length);
    const char* raw_tag = reinterpret_cast<const char*>(event.data.scalar.tag);
    if (raw_tag == nullptr || std::string_view(raw_tag) == "!") {
        if (event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE && raw_tag == nullptr) return resolve_plain(text);
        return boost::json::string(text);
    }
    const std::string_view tag(raw_tag);
    if (!tag.starts_with(kTagPrefix)) fail("the tag " + std::string(tag) + " is not supported");
    const auto type = tag.substr(kTagPrefix.size());
    if (type == "str") return boost::json::string(text);
    auto value = resolve_plain(text);
    const bool fits = (type == "null" && value.is_null()) || (type == "bool" && value.is_bool()) ||
                      (type == "int" && (value.is_int64() || value.is_double()) && text.find('.') == text.npos) ||
                      (type == "float" && (value.is_int64() || value.is_double()));
    if (!fits) {
        std::string what(text);
        what.append(" is not a valid !!").append(type);
        fail(what);
    }
    if (type == "float" && value.is_int64()) return static_cast<double>(value.get_int64());
    return value;
}

void check_collection_tag(const yaml_char_t* raw, std::string_view expected) {
    if (raw == nullptr) return;
    const std::string_view tag(reinterpret_cast<const char*>(raw));
    if (tag != "!" && !(tag.starts_with(kTagPrefix) && tag.substr(kTagPrefix.size()) == expected))
        fail("the tag " + std::string(tag) + " is not supported");
}

// Mappings and sequences under construction, innermost last.
class Builder {
public:
    explicit Builder(const FrontmatterLimits& limits) : limits_(limits) {}

    void open(bool mapping) {
        if (awaiting_key()) fail("a key must be a scalar");
        if (frames_.size() >= limits_.max_depth) fail("nested deeper than " + std::to_string(limits_.max_depth));
        count();
        Frame frame;
        if (mapping)
            frame.value = boost::json::object();
        else
            frame.value = boost::json::array();
        frames_.push_back(std::move(frame));
    }

    void close() {
        auto frame = std::move(frames_.back());
        frames_.pop_back();
        add(std::move(frame.value));
    }

    void scalar(const yaml_event_t& event) {
        count();
        if (awaiting_key()) {
            std::string key(reinterpret_cast<const char*>(event.data.scalar.value), event.data.scalar.length);
            if (frames_.back().value.get_object().contains(key)) fail("the key \"" + key + "\" appears twice");
            frames_.back().key = std::move(key);
            return;
        }
        add(scalar_value(event));
    }

    boost::json::object take_root() {
        if (!root_ || !root_->is_object()) fail("the frontmatter must be a mapping of keys to values");
        return std::move(root_->as_object());
    }

private:
    struct Frame {
        boost::json::value value;
        std::optional<std::string> key;  // a mapping's key waiting for its value
    };

    bool awaiting_key() const { return !frames_.empty() && frames_.back().value.is_object() && !frames_.back().key; }

    void count() {
        if (++nodes_ > limits_.max_nodes) fail("more than " + std::to_string(limits_.max_nodes) + " values");
    }

    void add(boost::json::value value) {
        if (frames_.empty()) {
            root_ = std::move(value);
            return;
        }
        auto& top = frames_.back();
        if (top.value.is_array()) {
            top.value.get_array().push_back(std::move(value));
        } else {
            top.value.get_object()[*top.key] = std::move(value);
            top.key.reset();
        }
    }

    const FrontmatterLimits& limits_;
    std::vector<Frame> frames_;
    std::optional<boost::json::value> root_;
    std::size_t nodes_ = 0;
};

struct Parser {
    yaml_parser_t parser{};
    Parser() {
        if (yaml_parser_initialize(&parser) == 0) throw std::bad_alloc();
    }
    ~Parser() { yaml_parser_delete(&parser); }
    Parser(const Parser&) = delete;
    Parser& operator=(const Parser&) = delete;
};

struct Event {
    yaml_event_t event{};
    ~Event() { yaml_event_delete(&event); }
};

}  // namespace

boost::json::object parse_frontmatter(std::string_view skill_md, const FrontmatterLimits& limits) {
    const auto block = frontmatter_block(skill_md);
    if (block.size() > limits.max_bytes) fail("larger than " + std::to_string(limits.max_bytes) + " bytes");

    Parser p;
    yaml_parser_set_input_string(&p.parser, reinterpret_cast<const unsigned char*>(block.data()), block.size());
    Builder builder(limits);
    int documents = 0;
    while (true) {
        Event e;
        if (yaml_parser_parse(&p.parser, &e.event) == 0) {
            fail(std::string(p.parser.problem != nullptr ? p.parser.problem : "invalid YAML") + " (line " +
                 std::to_string(p.parser.problem_mark.line + 1) + ")");
        }
        switch (e.event.type) {
            case YAML_STREAM_END_EVENT: return builder.take_root();
            case YAML_DOCUMENT_START_EVENT:
                if (++documents > 1) fail("holds more than one YAML document");
                break;
            case YAML_ALIAS_EVENT: fail("aliases (*name) are not supported");
            case YAML_SCALAR_EVENT: builder.scalar(e.event); break;
            case YAML_MAPPING_START_EVENT:
                check_collection_tag(e.event.data.mapping_start.tag, "map");
                builder.open(true);
                break;
            case YAML_SEQUENCE_START_EVENT:
                check_collection_tag(e.event.data.sequence_start.tag, "seq");
                builder.open(false);
                break;
            case YAML_MAPPING_END_EVENT:
            case YAML_SEQUENCE_END_EVENT: builder.close(); break;
            default: break;
        }
    }
}

}  // namespace mcp::detail
