#pragma once
// RFC 6570 URI templates (levels 1-3 plus the explode modifier), used both ways:
// expansion, and matching a concrete URI back to variable values for resources/read.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

// Variable values, percent-decoded. An exploded list variable's items are joined with ','.
using UriVariables = std::map<std::string, std::string, std::less<>>;

class UriTemplate {
public:
    // Throws std::invalid_argument on a malformed template (unclosed brace, bad variable name,
    // unsupported operator, the same variable twice).
    explicit UriTemplate(std::string_view text);

    const std::string& str() const { return text_; }
    // Variable names in order of first appearance.
    const std::vector<std::string>& variables() const { return variables_; }
    // True when the template has no expressions at all.
    bool is_literal() const { return variables_.empty(); }

    // Matches a concrete URI against the whole template. Variables of path-like expressions must
    // match at least one character; query variables ({?a,b} / {&c}) are optional and may come in
    // any order, but an unknown query parameter makes the match fail.
    std::optional<UriVariables> match(std::string_view uri) const;

    // RFC 6570 expansion; undefined variables are skipped as the RFC says.
    std::string expand(const UriVariables& values) const;

    struct Part;  // compiled piece: a literal or an expression

private:
    std::string text_;
    std::vector<std::string> variables_;
    std::vector<Part> parts_;
};

// A literal, or one variable of an expression: {op a,b} compiles to one part per variable, the
// first flagged so that expansion can regroup them.
struct UriTemplate::Part {
    std::string text;           // the literal text, or the variable name
    bool literal = false;
    bool first = false;         // first variable of its expression
    bool explode = false;       // the '*' modifier
    char op = '\0';             // the expression's operator, '\0' for a simple {var}
    unsigned short prefix = 0;  // the ':N' modifier, 0 when absent
};

}  // namespace mcp
