// RFC 6570 URI templates, levels 1-3 plus the explode modifier.
//
// Values are strings. An exploded variable's value is taken as a list whose items are separated by
// ',' ("red,green" with {/list*} expands to "/red/green"), the mirror of match(), which joins the
// items of an exploded variable with ','. An item cannot therefore contain a ','.
//
// What match() accepts, per expression (values are percent-decoded, escapes must be valid and the
// decoded bytes UTF-8; a value never starts or ends inside an escape or a UTF-8 sequence):
//   {a}, {a,b}      one or more unreserved characters or escapes each, separated by ','
//   {+a}, {#a}      also reserved characters, '/', '?', '#' and ',' included; {#a} after a '#'
//   {.a}, {/a}      ".label" (no '.' in the label) and "/segment" per variable
//   {;a}            ";a=value", ";a=" or ";a" (empty value), variables in template order
//   {?a,b}, {&c}    query parameters "?a=1&b=2": any order, each optional (absent from the result),
//                   none unknown, none repeated unless exploded. A {?...} expression and the {&...}
//                   expressions right after it form one group. A value may hold '/', '?', '='
//                   and the other sub-delims but '&'; '+' stays '+'.
//   {a*} etc.       one or more items (each non-empty but for ';' and query ones), joined with ','
//   {a:3}           at most 3 code points
// All but the query variables must be present and, but for ';', non-empty.
//
// Matching walks the parts left to right with backtracking, trying the longest value first
// ({a}-{b} on "x-y-z" gives a = "x-y"). The work is bounded twice: a (part, position) pair that
// failed once is remembered and never explored again, and every character examined and every
// attempt spends from a budget proportional to the URI's length; a match that runs out of budget
// fails. Only contrived templates and URIs get there (e.g. {a}-{b}-{c}!{d} against 100 KB of
// "x-x-x-"), and those do not match anyway.
//
// const methods keep all their state on the stack, so they are safe to call concurrently.
#include <mcp/protocol/uri_template.hpp>

#include "util/percent_encoding.hpp"
#include "util/utf8.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

// A literal, or one variable of an expression: {op a,b} compiles to one part per variable, the
// first flagged so that expansion can regroup them.
struct detail::UriTemplatePart {
    std::string text;  // the literal text, or the variable name
    bool literal = false;
    bool first = false;         // first variable of its expression
    bool explode = false;       // the '*' modifier
    char op = '\0';             // the expression's operator, '\0' for a simple {var}
    unsigned short prefix = 0;  // the ':N' modifier, 0 when absent
};

namespace {

using detail::percent_escape_at;
using detail::percent_escaped_byte;
using detail::Utf8Checker;

using Part = detail::UriTemplatePart;
constexpr std::size_t npos = std::string_view::npos;

unsigned char uc(char c) { return static_cast<unsigned char>(c); }

// ---- Characters ------------------------------------------------------------------------------

enum CharClass : std::uint8_t {
    kUnreserved = 1,  // ALPHA DIGIT - . _ ~
    kReserved = 2,    // gen-delims and sub-delims
    kLabel = 4,       // unreserved but '.': a value of {.var}
    kQuery = 8,       // a query parameter's name or value: what a query may hold but '&' and '#'
    kLiteral = 16,    // allowed as-is in a template literal (RFC 6570 §2.1); '%' is handled apart
};

constexpr std::array<std::uint8_t, 256> make_char_table() {
    std::array<std::uint8_t, 256> table{};
    const auto add = [&](std::string_view chars, std::uint8_t bits) {
        for (char c : chars) table[static_cast<unsigned char>(c)] |= bits;
    };
    for (int c = 0; c < 26; ++c) {
        table['a' + c] |= kUnreserved | kLabel | kQuery;
        table['A' + c] |= kUnreserved | kLabel | kQuery;
    }
    add("0123456789-_~", kUnreserved | kLabel | kQuery);
    add(".", kUnreserved | kQuery);
    add(":/?#[]@!$&'()*+,;=", kReserved);
    add("!$'()*+,;=:@/?", kQuery);
    for (int c = 0x21; c < 0x7F; ++c) table[c] |= kLiteral;
    for (char c : std::string_view("\"'%<>\\^`{|}")) table[static_cast<unsigned char>(c)] &= ~kLiteral;
    for (int c = 0x80; c < 0x100; ++c) table[c] |= kLiteral;  // UTF-8, checked separately
    return table;
}
constexpr std::array<std::uint8_t, 256> kChars = make_char_table();

bool in_class(char c, std::uint8_t classes) { return (kChars[uc(c)] & classes) != 0; }

constexpr char kHexDigits[] = "0123456789ABCDEF";

bool continuation_byte(unsigned char b) { return (b & 0xC0) == 0x80; }

// Every '%' starts a valid escape and the decoded bytes are UTF-8.
bool valid_uri(std::string_view uri) {
    Utf8Checker utf8;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        unsigned char b = uc(uri[i]);
        if (b == '%') {
            if (!percent_escape_at(uri, i)) return false;
            b = percent_escaped_byte(uri, i);
            i += 2;
        }
        if (!utf8.feed(b)) return false;
    }
    return utf8.complete();
}

// Appends the decoding of raw, whose escapes are known to be valid. Raw `separator` characters
// (the item separator of an exploded list) become ','; '\0' leaves all as they are.
void append_decoded(std::string& out, std::string_view raw, char separator = '\0') {
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '%') {
            out += static_cast<char>(percent_escaped_byte(raw, i));
            i += 2;
        } else {
            out += separator != '\0' && raw[i] == separator ? ',' : raw[i];
        }
    }
}

void append_encoded(std::string& out, std::string_view value, bool allow_reserved) {
    const std::uint8_t as_is = allow_reserved ? kUnreserved | kReserved : kUnreserved;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (in_class(value[i], as_is)) {
            out += value[i];
        } else if (allow_reserved && percent_escape_at(value, i)) {  // {+var} and {#var} keep escapes
            out.append(value, i, 3);
            i += 2;
        } else {
            out += '%';
            out += kHexDigits[uc(value[i]) >> 4];
            out += kHexDigits[uc(value[i]) & 15];
        }
    }
}

// The bytes of the first `count` code points of s.
std::string_view first_code_points(std::string_view s, std::size_t count) {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!continuation_byte(uc(s[i])) && seen++ == count) return s.substr(0, i);
    }
    return s;
}

// ---- Operators (RFC 6570 appendix A) ---------------------------------------------------------

struct Operator {
    char first;            // emitted before the first defined variable, '\0' for nothing
    char separator;        // between variables, and between the items of an exploded one
    bool named;            // name=value pairs
    bool empty_equals;     // a named empty value keeps its '='
    bool allow_reserved;   // reserved characters pass unencoded
    std::uint8_t matches;  // characters a matched value may hold besides escapes
};

Operator operator_of(char op) {
    switch (op) {
        case '+': return {'\0', ',', false, false, true, kUnreserved | kReserved};
        case '#': return {'#', ',', false, false, true, kUnreserved | kReserved};
        case '.': return {'.', '.', false, false, false, kLabel};
        case '/': return {'/', '/', false, false, false, kUnreserved};
        case ';': return {';', ';', true, false, false, kUnreserved};
        case '?': return {'?', '&', true, true, false, kQuery};
        case '&': return {'&', '&', true, true, false, kQuery};
        default: return {'\0', ',', false, false, false, kUnreserved};
    }
}

bool query_operator(char op) { return op == '?' || op == '&'; }

// ---- Parsing ---------------------------------------------------------------------------------

[[noreturn]] void fail(std::string_view text, const std::string& what, std::size_t offset) {
    throw std::invalid_argument("invalid URI template \"" + std::string(text) + "\": " + what + " at offset " +
                                std::to_string(offset));
}

std::string describe(char c) {
    if (uc(c) > 0x20 && uc(c) < 0x7F) return std::string("'") + c + "'";
    return std::string("byte 0x") + kHexDigits[uc(c) >> 4] + kHexDigits[uc(c) & 15];
}

// varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
bool valid_varname(std::string_view name) {
    bool need_char = true;  // at the start and after a '.'
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '.') {
            if (need_char) return false;
            need_char = true;
            continue;
        }
        if (c == '%') {
            if (!percent_escape_at(name, i)) return false;
            i += 2;
        } else if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c != '_') {
            return false;
        }
        need_char = false;
    }
    return !need_char;
}

// max-length = %x31-39 0*3DIGIT; 0 when invalid.
unsigned short parse_prefix(std::string_view digits) {
    if (digits.empty() || digits.size() > 4 || digits[0] == '0') return 0;
    unsigned short value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return 0;
        value = static_cast<unsigned short>(value * 10 + (c - '0'));
    }
    return value;
}

// Compiles the expression text[begin, end), the part between the braces.
void parse_expression(std::string_view text, std::size_t begin, std::size_t end, std::vector<Part>& parts,
                      std::vector<std::string>& names) {
    if (begin == end) fail(text, "empty expression", begin - 1);
    char op = text[begin];
    if (std::string_view("+#./;?&").find(op) != npos) {
        ++begin;
    } else if (std::string_view("=,!@|").find(op) != npos) {
        fail(text, "reserved operator '" + std::string(1, op) + "'", begin);
    } else {
        op = '\0';
    }
    for (std::size_t spec = begin;;) {
        const std::size_t comma = std::min(text.find(',', spec), end);
        std::string_view name = text.substr(spec, comma - spec);
        Part part;
        part.first = spec == begin;
        part.op = op;
        if (const std::size_t colon = name.find(':'); colon != npos) {
            part.prefix = parse_prefix(name.substr(colon + 1));
            if (part.prefix == 0) {
                fail(text, "invalid prefix modifier '" + std::string(name.substr(colon)) + "' (want :1 to :9999)",
                     spec + colon);
            }
            name = name.substr(0, colon);
        } else if (!name.empty() && name.back() == '*') {
            part.explode = true;
            name.remove_suffix(1);
        }
        if (name.empty()) fail(text, "missing variable name", spec);
        if (!valid_varname(name)) fail(text, "invalid variable name '" + std::string(name) + "'", spec);
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            fail(text, "variable '" + std::string(name) + "' used twice", spec);
        }
        names.emplace_back(name);
        part.text = name;
        parts.push_back(std::move(part));
        if (comma == end) return;
        spec = comma + 1;
    }
}

// ---- Matching --------------------------------------------------------------------------------

// One match attempt. The parts are tried in order; a variable tries each place its value may end,
// longest first, and recurses for the rest (recursion depth: the number of variables).
class Matcher {
public:
    Matcher(const std::vector<Part>& parts, std::string_view uri, UriVariables& out)
        : parts_(parts), uri_(uri), out_(out), budget_(kBaseBudget + kBudgetPerByte * uri.size()) {
        const std::size_t bits = parts.size() * (uri.size() + 1);
        if (bits > small_.size() * 64) {
            large_.resize((bits + 63) / 64);
            failed_ = large_.data();
        }
    }
    Matcher(const Matcher&) = delete;
    Matcher& operator=(const Matcher&) = delete;

    // Matches parts [step, end) against uri[pos, end); fills `out` on success.
    bool match_from(std::size_t step, std::size_t pos);

private:
    // Enough for any sane URI; the factor covers a few backtracking passes over it.
    static constexpr std::size_t kBaseBudget = 100'000;
    static constexpr std::size_t kBudgetPerByte = 64;

    bool spend(std::size_t units) {
        if (units > budget_) {
            budget_ = 0;
            return false;
        }
        budget_ -= units;
        return true;
    }
    bool boundary(std::size_t pos) const;
    std::size_t run_end(std::size_t pos, std::uint8_t chars, unsigned limit);
    std::size_t piece_end(const Part& part, const Operator& op, std::size_t pos);
    bool match_variable(std::size_t step, std::size_t pos);
    bool match_query(std::size_t step, std::size_t pos);
    void capture_variable(const Part& part, const Operator& op, std::size_t begin, std::size_t end, char separator);
    void capture_query(std::size_t begin, std::size_t end);

    const std::vector<Part>& parts_;
    std::string_view uri_;
    UriVariables& out_;
    std::size_t budget_;
    // Failed (part, position) pairs, one bit each; on the stack unless the URI is long.
    std::array<std::uint64_t, 32> small_{};
    std::vector<std::uint64_t> large_;
    std::uint64_t* failed_ = small_.data();
};

bool Matcher::match_from(std::size_t step, std::size_t pos) {
    for (; step < parts_.size() && parts_[step].literal; ++step) {
        if (uri_.compare(pos, parts_[step].text.size(), parts_[step].text) != 0) return false;
        pos += parts_[step].text.size();
    }
    if (step == parts_.size()) return pos == uri_.size();
    const std::size_t bit = step * (uri_.size() + 1) + pos;
    const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
    if (failed_[bit / 64] & mask) return false;
    const bool ok = query_operator(parts_[step].op) ? match_query(step, pos) : match_variable(step, pos);
    if (!ok) failed_[bit / 64] |= mask;
    return ok;
}

// True when a value may start or end at pos: neither inside an escape nor inside a UTF-8 sequence.
bool Matcher::boundary(std::size_t pos) const {
    if (pos == 0 || pos >= uri_.size()) return true;
    if (uri_[pos - 1] == '%' || (pos >= 2 && uri_[pos - 2] == '%')) return false;
    return !continuation_byte(uri_[pos] == '%' ? percent_escaped_byte(uri_, pos) : uc(uri_[pos]));
}

// End of the longest run from pos of `chars` and escapes holding at most `limit` code points
// (0: no limit).
std::size_t Matcher::run_end(std::size_t pos, std::uint8_t chars, unsigned limit) {
    std::size_t end = pos;
    unsigned count = 0;
    while (end < uri_.size()) {
        unsigned char b;
        std::size_t width = 1;
        if (uri_[end] == '%') {
            b = percent_escaped_byte(uri_, end);
            width = 3;
        } else if (in_class(uri_[end], chars)) {
            b = uc(uri_[end]);
        } else {
            break;
        }
        if (limit != 0 && !continuation_byte(b) && count++ == limit) break;
        end += width;
    }
    spend(end - pos + 1);  // when this exhausts the budget, the caller's next spend() fails
    return end;
}

// End of one piece of a variable starting at pos (after its lead or separator): the value, or
// "name", "name=" or "name=value" for ';'. npos when there is none.
std::size_t Matcher::piece_end(const Part& part, const Operator& op, std::size_t pos) {
    if (op.named) {
        if (uri_.compare(pos, part.text.size(), part.text) != 0) return npos;
        pos += part.text.size();
        if (pos == uri_.size() || uri_[pos] != '=') return pos;
        ++pos;
    }
    const std::size_t end = run_end(pos, op.matches, part.prefix);
    return end == pos && !op.named ? npos : end;
}

bool Matcher::match_variable(std::size_t step, std::size_t pos) {
    const Part& part = parts_[step];
    const Operator op = operator_of(part.op);
    if (const char lead = part.first ? op.first : op.separator; lead != '\0') {
        if (pos == uri_.size() || uri_[pos] != lead) return false;
        ++pos;
    }
    if (!boundary(pos)) return false;
    // An exploded variable is a list of pieces; for + and # the separator ',' may be part of a
    // value anyway, so their list is matched as one value.
    const char separator = part.explode && !op.allow_reserved ? op.separator : '\0';
    std::size_t end = piece_end(part, op, pos);
    if (end == npos) return false;
    while (separator != '\0' && end < uri_.size() && uri_[end] == separator) {
        const std::size_t next = piece_end(part, op, end + 1);
        if (next == npos) break;
        end = next;
    }
    // Every place the value may end, longest first: within the last piece's value, then within
    // the one before, and so on. Separators never occur inside a piece.
    for (std::size_t piece_stop = end;;) {
        std::size_t piece_start = piece_stop;
        if (separator != '\0') {
            while (piece_start > pos && uri_[piece_start - 1] != separator) --piece_start;
        } else {
            piece_start = pos;
        }
        if (!spend(piece_stop - piece_start + 1)) return false;
        // A named piece may stop right after its name (";x" is x = ""), even before a '='.
        const std::size_t min_end = piece_start + (op.named ? part.text.size() : 1);
        for (std::size_t e = piece_stop + 1; e-- > min_end;) {
            if (!spend(1)) return false;
            if (boundary(e) && match_from(step + 1, e)) {
                capture_variable(part, op, pos, e, separator);
                return true;
            }
        }
        if (piece_start == pos) return false;
        piece_stop = piece_start - 1;  // the separator before this piece ends the previous one
    }
}

void Matcher::capture_variable(const Part& part, const Operator& op, std::size_t begin, std::size_t end,
                               char separator) {
    std::string value;
    std::string_view region = uri_.substr(begin, end - begin);
    if (!op.named) {
        append_decoded(value, region, separator);
    } else {
        for (bool first = true;; first = false) {
            const std::size_t cut = separator != '\0' ? region.find(separator) : npos;
            std::string_view piece = region.substr(0, cut);
            piece.remove_prefix(std::min(piece.size(), part.text.size() + 1));  // "name="
            if (!first) value += ',';
            append_decoded(value, piece);
            if (cut == npos) break;
            region.remove_prefix(cut + 1);
        }
    }
    out_.emplace(part.text, std::move(value));
}

// A query group: the variables of a {?...} or {&...} expression and of the {&...} expressions
// right after it. Its parameters may come in any order and each is optional; an exploded
// variable may repeat. The group ends at the latest before the first parameter it does not accept.
bool Matcher::match_query(std::size_t step, std::size_t pos) {
    std::size_t group_end = step + 1;
    while (group_end < parts_.size() && !parts_[group_end].literal &&
           (parts_[group_end].op == '&' || (parts_[group_end].op == '?' && !parts_[group_end].first))) {
        ++group_end;
    }
    const std::size_t group_size = group_end - step;
    // Non-exploded variables may appear once: bits for the first 64, a vector beyond.
    std::uint64_t seen_small = 0;
    std::vector<bool> seen_large(group_size > 64 ? group_size : 0);
    const auto first_time = [&](std::size_t k) {
        if (k < 64) {
            const bool first = (seen_small >> k & 1) == 0;
            seen_small |= std::uint64_t{1} << k;
            return first;
        }
        const bool first = !seen_large[k];
        seen_large[k] = true;
        return first;
    };

    std::size_t end = pos;
    for (char lead = parts_[step].op; end < uri_.size() && uri_[end] == lead; lead = '&') {
        const std::size_t name_start = end + 1;
        std::size_t name_end = name_start;
        while (name_end < uri_.size() && uri_[name_end] != '=' &&
               (uri_[name_end] == '%' || in_class(uri_[name_end], kQuery))) {
            ++name_end;
        }
        if (!spend(name_end - name_start + group_size)) return false;
        const std::string_view name = uri_.substr(name_start, name_end - name_start);
        std::size_t k = 0;
        while (k < group_size && parts_[step + k].text != name) ++k;
        if (k == group_size) break;
        const Part& part = parts_[step + k];
        if (!first_time(k) && !part.explode) break;
        end = name_end < uri_.size() && uri_[name_end] == '=' ? run_end(name_end + 1, kQuery, part.prefix) : name_end;
    }
    // Every place the group may end, longest first: within the last parameter's value, then
    // within the value of the one before, and so on; last, with no parameter at all.
    const auto attempt = [&](std::size_t stop) {
        if (!spend(1) || !boundary(stop) || !match_from(group_end, stop)) return false;
        capture_query(pos, stop);
        return true;
    };
    for (std::size_t stop = end; stop != pos;) {
        const std::size_t amp = uri_.substr(pos, stop - pos).rfind('&');
        const std::size_t param = amp == npos ? pos : pos + amp;
        const std::size_t eq = uri_.substr(param, stop - param).find('=');
        if (!spend(stop - param)) return false;
        for (std::size_t e = stop + 1; e-- > (eq == npos ? stop : param + eq + 1);) {
            if (attempt(e)) return true;
        }
        stop = param;
    }
    return attempt(pos);
}

void Matcher::capture_query(std::size_t begin, std::size_t end) {
    std::string_view params = uri_.substr(begin, end - begin);
    while (!params.empty()) {
        params.remove_prefix(1);  // '?' or '&'
        const std::size_t cut = params.find('&');
        const std::string_view param = params.substr(0, cut);
        params.remove_prefix(cut == npos ? params.size() : cut);
        const std::size_t eq = param.find('=');
        const std::string_view name = param.substr(0, eq);
        auto it = out_.find(name);
        if (it == out_.end()) {
            it = out_.emplace(name, std::string()).first;
        } else {
            it->second += ',';  // a repeated exploded variable
        }
        if (eq != npos) append_decoded(it->second, param.substr(eq + 1));
    }
}

// ---- Expansion -------------------------------------------------------------------------------

void append_item(std::string& out, const Part& part, const Operator& op, std::string_view item) {
    if (op.named) {
        out += part.text;
        if (item.empty()) {
            if (op.empty_equals) out += '=';
            return;
        }
        out += '=';
    }
    append_encoded(out, item, op.allow_reserved);
}

void append_value(std::string& out, const Part& part, const Operator& op, std::string_view value) {
    if (!part.explode) {
        append_item(out, part, op, part.prefix != 0 ? first_code_points(value, part.prefix) : value);
        return;
    }
    for (std::size_t begin = 0;;) {
        const std::size_t cut = value.find(',', begin);
        if (begin != 0) out += op.separator;
        append_item(out, part, op, value.substr(begin, cut == npos ? npos : cut - begin));
        if (cut == npos) return;
        begin = cut + 1;
    }
}

}  // namespace

UriTemplate::~UriTemplate() = default;
UriTemplate::UriTemplate(const UriTemplate&) = default;
UriTemplate::UriTemplate(UriTemplate&&) noexcept = default;
UriTemplate& UriTemplate::operator=(const UriTemplate&) = default;
UriTemplate& UriTemplate::operator=(UriTemplate&&) noexcept = default;

UriTemplate::UriTemplate(std::string_view text) : text_(text) {
    Utf8Checker utf8;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!utf8.feed(uc(text[i]))) fail(text, "invalid UTF-8", i);
    }
    if (!utf8.complete()) fail(text, "truncated UTF-8 sequence", text.size());

    std::size_t literal_start = 0;
    const auto add_literal = [&](std::size_t end) {
        if (end > literal_start) {
            parts_.push_back(Part{.text = text_.substr(literal_start, end - literal_start), .literal = true});
        }
    };
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '{') {
            add_literal(i);
            const std::size_t close = text.find_first_of("{}", i + 1);
            if (close == npos || text[close] == '{') fail(text, "unclosed '{'", i);
            parse_expression(text, i + 1, close, parts_, variables_);
            i = literal_start = close + 1;
        } else if (c == '}') {
            fail(text, "'}' without '{'", i);
        } else if (c == '%') {
            if (!percent_escape_at(text, i)) fail(text, "'%' not followed by two hex digits", i);
            i += 3;
        } else if (!in_class(c, kLiteral)) {
            fail(text, describe(c) + " not allowed", i);
        } else {
            ++i;
        }
    }
    add_literal(text.size());
}

std::optional<UriVariables> UriTemplate::match(std::string_view uri) const {
    if (is_literal()) return uri == text_ ? std::optional<UriVariables>(std::in_place) : std::nullopt;
    // Cheap rejections first: the literal text the URI must start and end with.
    if (parts_.front().literal && !uri.starts_with(parts_.front().text)) return std::nullopt;
    if (parts_.back().literal && !uri.ends_with(parts_.back().text)) return std::nullopt;
    if (!valid_uri(uri)) return std::nullopt;
    UriVariables variables;
    Matcher matcher(parts_, uri, variables);
    if (!matcher.match_from(0, 0)) return std::nullopt;
    return variables;
}

std::string UriTemplate::expand(const UriVariables& values) const {
    std::string out;
    out.reserve(text_.size());
    bool defined_before = false;  // some earlier variable of the current expression had a value
    for (const Part& part : parts_) {
        if (part.literal) {
            out += part.text;
            continue;
        }
        if (part.first) defined_before = false;
        const auto it = values.find(part.text);
        if (it == values.end()) continue;
        const Operator op = operator_of(part.op);
        if (const char lead = defined_before ? op.separator : op.first; lead != '\0') out += lead;
        defined_before = true;
        append_value(out, part, op, it->second);
    }
    return out;
}

}  // namespace mcp
