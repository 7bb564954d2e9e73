#pragma once
// Skills on disk: reading one skill directory, and finding the skill directories below a root.
// Bounded for hostile trees: depth, file count and bytes are checked while walking, and symbolic
// links are refused rather than followed.
#include <mcp/ext/skills.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail {

// Throws std::invalid_argument naming the directory and the problem.
Skill read_skill_directory(const std::filesystem::path& directory, std::string path);

// Each directory below `root` that holds a SKILL.md, with its path relative to
// `root` ('/'-separated), innermost first so that a nested skill is served before its enclosing one.
std::vector<std::pair<std::filesystem::path, std::string>> find_skill_directories(const std::filesystem::path& root);

}  // namespace mcp::detail
