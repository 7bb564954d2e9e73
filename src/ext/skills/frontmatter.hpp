#pragma once
// A SKILL.md's YAML frontmatter as the JSON object a skill entry carries (SEP-2640: "rendered
// verbatim"). Plain scalars are typed by the YAML 1.2 core schema, as clients' YAML parsers type
// them, so that a client comparing the entry with the file finds them identical.
#include <boost/json/object.hpp>

#include <cstddef>
#include <string_view>

namespace mcp::detail {

struct FrontmatterLimits {
    std::size_t max_bytes = 64 * 1024;
    std::size_t max_depth = 32;    // nested mappings and sequences
    std::size_t max_nodes = 4096;  // scalars, mappings and sequences together
};

// The block between a leading "---" line and the next "---" line (a byte-order mark first is
// skipped), parsed. Throws std::invalid_argument naming the problem: no frontmatter, a root that
// is not a mapping, YAML errors, aliases, duplicate or non-scalar keys, unknown tags, values JSON
// cannot hold (.inf, .nan), or a limit passed.
boost::json::object parse_frontmatter(std::string_view skill_md, const FrontmatterLimits& limits = {});

}  // namespace mcp::detail
