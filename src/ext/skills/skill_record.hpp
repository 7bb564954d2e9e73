#pragma once
// A Skill checked against the rules of SEP-2640 and the Agent Skills specification, and turned
// into what the catalog serves: its entry, with every file's digest and size, and its files.
#include <mcp/ext/skills.hpp>

#include "ext/skills/skill_catalog.hpp"

#include <string_view>

namespace mcp::detail {

inline constexpr std::size_t kMaxSkillFiles = 512;               // SKILL.md included
inline constexpr std::size_t kMaxSkillBytes = 16 * 1024 * 1024;  // all files together

// The Agent Skills naming rule: 1 to 64 of [a-z0-9-], no hyphen first, last or twice in a row.
bool valid_skill_name(std::string_view name);

// Throws std::invalid_argument naming the skill and what is wrong with it.
SkillRecord make_skill_record(Skill skill);

// "sha256:" and the 64 lowercase hex digits of the SHA-256 of `bytes`.
std::string sha256_digest(std::string_view bytes);

}  // namespace mcp::detail
