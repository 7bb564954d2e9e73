#include "ext/skills/skill_directory.hpp"

#include "ext/skills/skill_record.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace mcp::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxDepth = 16;
constexpr std::size_t kMaxDirectoriesSearched = 10'000;

[[noreturn]] void fail(const fs::path& where, const std::string& what) {
    throw std::invalid_argument(where.string() + ": " + what);
}

std::string read_file(const fs::path& file, std::size_t limit) {
    std::ifstream in(file, std::ios::binary);
    if (!in) fail(file, "cannot be read");
    std::string content;
    std::array<char, 64 * 1024> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        content.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        if (content.size() > limit) fail(file, "the skill passes 16 MiB");
    }
    return content;
}

bool hidden(const fs::path& p) { return p.filename().string().starts_with('.'); }

// Every regular file below `dir`, its path relative to `base`.
void collect(const fs::path& base, const fs::path& dir, std::size_t depth, Skill& skill, std::size_t& bytes) {
    if (depth > kMaxDepth) fail(dir, "nested deeper than 16 directories");
    std::vector<fs::directory_entry> entries;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!hidden(it->path())) entries.push_back(*it);
        if (entries.size() > kMaxSkillFiles) fail(dir, "holds more than 512 files");
    }
    if (ec) fail(dir, "cannot be listed: " + ec.message());
    std::sort(entries.begin(), entries.end());
    for (const auto& entry : entries) {
        const auto status = entry.symlink_status();
        const auto relative = entry.path().lexically_relative(base).generic_string();
        if (fs::is_symlink(status)) fail(entry.path(), "is a symbolic link, which skills do not follow");
        if (fs::is_directory(status)) {
            collect(base, entry.path(), depth + 1, skill, bytes);
        } else if (fs::is_regular_file(status)) {
            if (relative == "SKILL.md") continue;
            if (skill.files.size() + 1 >= kMaxSkillFiles) fail(base, "holds more than 512 files");
            auto content = read_file(entry.path(), kMaxSkillBytes - bytes);
            bytes += content.size();
            skill.files.push_back({relative, std::move(content), {}});
        }
    }
}

}  // namespace

Skill read_skill_directory(const fs::path& directory, std::string path) {
    Skill skill;
    skill.path = std::move(path);
    const auto skill_md = directory / "SKILL.md";
    if (!fs::is_regular_file(fs::symlink_status(skill_md))) fail(directory, "holds no SKILL.md file");
    skill.skill_md = read_file(skill_md, kMaxSkillBytes);
    std::size_t bytes = skill.skill_md.size();
    collect(directory, directory, 0, skill, bytes);
    return skill;
}

std::vector<std::pair<fs::path, std::string>> find_skill_directories(const fs::path& root) {
    if (!fs::is_directory(root)) fail(root, "is not a directory");
    std::vector<std::pair<fs::path, std::string>> found;
    std::vector<std::pair<fs::path, std::size_t>> pending{{root, 0}};
    std::size_t searched = 0;
    while (!pending.empty()) {
        auto [dir, depth] = std::move(pending.back());
        pending.pop_back();
        if (++searched > kMaxDirectoriesSearched) fail(root, "holds more than 10000 directories");
        if (fs::is_regular_file(fs::symlink_status(dir / "SKILL.md")))
            found.emplace_back(dir, dir.lexically_relative(root).generic_string());
        if (depth == kMaxDepth) continue;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            if (!hidden(it->path()) && fs::is_directory(it->symlink_status()))
                pending.emplace_back(it->path(), depth + 1);
        }
        if (ec) fail(dir, "cannot be listed: " + ec.message());
    }
    // A SKILL.md at the root itself has no path below the root to be served at.
    std::erase_if(found, [](const auto& f) { return f.second == "."; });
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        const auto depth = [](const std::string& p) { return std::count(p.begin(), p.end(), '/'); };
        return depth(a.second) != depth(b.second) ? depth(a.second) > depth(b.second) : a.second < b.second;
    });
    return found;
}

}  // namespace mcp::detail
