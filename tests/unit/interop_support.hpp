#pragma once
// What the interop tests (stdio and HTTP) read from the servers nobody here wrote: text results,
// tool names, and the npm packages of tests/e2e.
#include <mcp/client/client.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace interop {

inline std::string text_of(const mcp::CallToolResult& result) {
    std::string out;
    for (const auto& c : result.content) {
        if (const auto* t = std::get_if<mcp::TextContent>(&c)) out += t->text;
    }
    return out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline bool has_tool(const std::vector<mcp::Tool>& tools, const std::string& name) {
    return std::any_of(tools.begin(), tools.end(), [&](const mcp::Tool& t) { return t.name == name; });
}

// `path`, a file an npm package of tests/e2e installs; throws, saying how to install it, if missing.
inline std::filesystem::path installed(const std::filesystem::path& path) {
    if (!std::filesystem::exists(path))
        throw std::runtime_error(path.string() +
                                 " is missing: run `npm ci --prefix tests/e2e` (scripts/install-deps.sh --test)");
    return path;
}

}  // namespace interop
