#pragma once
// The `pattern` / `patternProperties` regex dialect: ECMA-262 syntax as understood by Boost.Regex,
// matched on Unicode code points (not bytes), unanchored.
#include <memory>
#include <string>
#include <string_view>

namespace mcp::json::schema_impl {

class Pattern {
public:
    enum class Result { match, no_match, too_complex };

    // Throws std::invalid_argument carrying the regex engine's reason when `source` is invalid.
    explicit Pattern(std::string_view source);
    ~Pattern();
    Pattern(Pattern&&) noexcept;
    Pattern& operator=(Pattern&&) noexcept;

    // Thread-safe. too_complex when the engine gave up (catastrophic backtracking, memory bound).
    Result search(std::string_view subject) const;
    const std::string& source() const { return source_; }

private:
    struct Compiled;
    std::string source_;
    std::unique_ptr<const Compiled> compiled_;
};

}  // namespace mcp::json::schema_impl
