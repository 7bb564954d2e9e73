#pragma once
// Splits a byte stream into lines of bounded length. An overlong line is skipped up to its
// newline without being buffered, and reported once.
#include <functional>
#include <string>
#include <string_view>

namespace mcp::detail {

class LineReader {
public:
    struct Handlers {
        std::function<void(std::string_view line)> line;   // without the '\n' (and a trailing '\r')
        std::function<void(std::size_t bytes)> oversized;  // a line longer than the limit
    };

    LineReader(std::size_t max_line_bytes, Handlers handlers);

    // Feeds bytes as they arrive.
    void feed(std::string_view bytes);
    // End of input: a last line without '\n' still counts.
    void finish();

private:
    void emit();

    std::size_t max_;
    Handlers handlers_;
    std::string line_;
    bool skipping_ = false;
    std::size_t skipped_ = 0;
};

}  // namespace mcp::detail
