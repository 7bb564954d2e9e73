#pragma once
// The Skills extension (io.modelcontextprotocol/skills, SEP-2640): Agent Skills served over MCP.
// Each file of a skill is a resource (skill://<skill-path>/<file-path>, read with resources/read);
// skills/list and skills/get return each skill's entry: its SKILL.md frontmatter as JSON, and
// the URI, SHA-256 digest and size of every file, which clients verify what they read against.
// resources/directory/read lists a skill directory's children.
//
//   mcp::Skills skills(server);                    // declares the extension, serves its methods
//   skills.add_directory("/srv/skills");           // every directory below that holds a SKILL.md
//   skills.add({.path = "notes-style",             // or one written in code
//               .skill_md = "---\nname: notes-style\ndescription: How notes are written\n---\n# Style\n...",
//               .files = {{.path = "examples/good.md", .content = "..."}}});
//
// Skills are checked when added (std::invalid_argument names the skill and the problem): the
// frontmatter must hold a name and a description (at most 1024 characters), the name must be the
// last segment of the skill's path and follow the Agent Skills naming rules (1 to 64 lowercase
// letters, digits and single hyphens, no hyphen first or last), metadata keys under
// "io.modelcontextprotocol/" are reserved, and a skill holds at most 512 files and 16 MiB.
// A skill's content is read once, when it is added: what the digests describe is what is served.
#include <mcp/server/server.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace mcp {

namespace detail {
class SkillCatalog;
}

struct SkillFile {
    std::string path;       // relative to the skill's root, '/'-separated: "references/FORMS.md"
    std::string content;    // the file's bytes
    std::string mime_type;  // empty: from the file name's extension (text/plain or application/octet-stream else)
};

struct Skill {
    // Where the skill sits in the server's skill namespace, '/'-separated: "git-workflow" or
    // "acme/billing/refunds". The last segment is the skill's name; the first is the URI's authority.
    std::string path;
    std::string skill_md;          // SKILL.md: YAML frontmatter between "---" lines, then Markdown
    std::vector<SkillFile> files;  // every other file of the skill
};

struct SkillsOptions {
    // Serve resources/directory/read and declare directoryRead: true.
    bool directory_read = true;
    // The bytes all skills may hold together; an add beyond it is refused.
    std::size_t max_total_bytes = std::size_t{64} * 1024 * 1024;
};

class Skills {
public:
    // Declares the extension on `server` and registers its methods there. The server must not
    // declare io.modelcontextprotocol/skills otherwise; its handlers keep what they serve alive.
    explicit Skills(Server& server, SkillsOptions options = {});

    // Serves a skill. Throws std::invalid_argument for a skill that breaks the rules above or
    // whose path is served already.
    void add(Skill skill);

    // Reads the skill in `directory` (its SKILL.md and every regular file below it; names starting
    // with '.' are skipped, symbolic links refused) and serves it at `path`.
    void add_directory_skill(const std::filesystem::path& directory, std::string path);
    // Serves every directory below `root` that holds a SKILL.md, at its path relative to `root`;
    // a skill inside another is served as well as being part of the outer one. Returns how many.
    std::size_t add_directory(const std::filesystem::path& root);

    // Reads a skill directory as add_directory_skill does, without serving it.
    static Skill read_directory(const std::filesystem::path& directory, std::string path);

private:
    Server* server_;
    SkillsOptions options_;
    std::shared_ptr<detail::SkillCatalog> catalog_;
};

}  // namespace mcp
