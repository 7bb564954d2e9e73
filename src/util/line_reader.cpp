#include "util/line_reader.hpp"

namespace mcp::detail {

LineReader::LineReader(std::size_t max_line_bytes, Handlers handlers)
    : max_(max_line_bytes), handlers_(std::move(handlers)) {}

void LineReader::feed(std::string_view bytes) {
    while (!bytes.empty()) {
        const auto nl = bytes.find('\n');
        const std::string_view piece = bytes.substr(0, nl);
        if (skipping_) {
            skipped_ += piece.size();
        } else if (line_.size() + piece.size() > max_ + 1) {  // + 1: a CRLF's CR is not part of the line
            skipping_ = true;
            skipped_ = line_.size() + piece.size();
            line_.clear();
            line_.shrink_to_fit();
        } else {
            line_.append(piece);
        }
        if (nl == std::string_view::npos) return;
        emit();
        bytes.remove_prefix(nl + 1);
    }
}

void LineReader::finish() {
    if (skipping_ || !line_.empty()) emit();
}

void LineReader::emit() {
    if (skipping_) {
        handlers_.oversized(skipped_);
        skipping_ = false;
        skipped_ = 0;
        return;
    }
    std::string_view line = line_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > max_) {
        handlers_.oversized(line.size());
    } else if (line.find_first_not_of(" \t") != std::string_view::npos) {
        handlers_.line(line);
    }
    line_.clear();
}

}  // namespace mcp::detail
