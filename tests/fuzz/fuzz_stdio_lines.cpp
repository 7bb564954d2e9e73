// The stdio transport's line reader: the input fed in pieces of sizes the input chooses, under a
// small limit (so that overlong lines are cheap to make) and under the real one (the message limit). What it emits must
// be what a plain split says: each line without its '\n' and a trailing '\r', blank lines dropped,
// lines over the limit reported with their length and never buffered whole.
#include "fuzz_check.hpp"
#include "util/line_reader.hpp"

#include <mcp/protocol/jsonrpc.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

// What the reader emits, in order: a line, or "#<n>" for an overlong line of n bytes.
using Events = std::vector<std::string>;

std::string overlong(std::size_t n) { return "#" + std::to_string(n); }

Events expected(std::string_view input, std::size_t max) {
    Events out;
    while (!input.empty()) {
        const auto nl = input.find('\n');
        std::string_view raw = input.substr(0, nl);
        input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
        if (raw.size() > max + 1) {  // + 1: a CRLF's CR is not part of the line
            out.push_back(overlong(raw.size()));
            continue;
        }
        std::string_view line = raw;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.size() > max) {
            out.push_back(overlong(line.size()));
        } else if (line.find_first_not_of(" \t") != std::string_view::npos) {
            out.emplace_back(line);
        }
    }
    return out;
}

Events read(std::string_view input, std::size_t max, std::size_t piece) {
    Events out;
    mcp::detail::LineReader reader(max, {.line = [&](std::string_view line) { out.emplace_back(line); },
                                         .oversized = [&](std::size_t n) { out.push_back(overlong(n)); }});
    for (std::size_t at = 0; at < input.size(); at += piece) reader.feed(input.substr(at, piece));
    reader.finish();
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte: how many bytes each read delivers (1 to 64).
    const std::size_t piece = data[0] % 64 + 1;
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    for (std::size_t max : {std::size_t{16}, mcp::jsonrpc::Limits{}.max_message_bytes}) {
        FUZZ_CHECK(read(input, max, piece) == expected(input, max));
    }
    return 0;
}
