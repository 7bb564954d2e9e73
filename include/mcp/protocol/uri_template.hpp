#pragma once
// RFC 6570 URI templates (levels 1-3 plus the explode modifier), used both ways:
// expansion, and matching a concrete URI back to variable values for resources/read.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

namespace detail {
struct UriTemplatePart;  // a compiled piece: a literal or one variable of an expression (uri_template.cpp)
}

// Variable values, percent-decoded. An exploded list variable's items are joined with ','.
using UriVariables = std::map<std::string, std::string, std::less<>>;

class UriTemplate {
public:
    // Throws std::invalid_argument on a malformed template (unclosed brace, bad variable name,
    // unsupported operator, the same variable twice).
    explicit UriTemplate(std::string_view text);
    ~UriTemplate();
    UriTemplate(const UriTemplate&);
    UriTemplate(UriTemplate&&) noexcept;
    UriTemplate& operator=(const UriTemplate&);
    UriTemplate& operator=(UriTemplate&&) noexcept;

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

private:
    std::string text_;
    std::vector<std::string> variables_;
    std::vector<detail::UriTemplatePart> parts_;
};

}  // namespace mcp
