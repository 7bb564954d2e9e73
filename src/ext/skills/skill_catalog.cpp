#include "ext/skills/skill_catalog.hpp"

#include <mutex>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kDirectory = "inode/directory";

// "skill://a/b/c.md" -> {"skill://a", "skill://a/b"}: the directories above a file, outermost first.
std::vector<std::string> parent_directories(std::string_view uri) {
    std::vector<std::string> out;
    const auto authority = uri.find("://");
    if (authority == std::string_view::npos) return out;
    for (auto slash = uri.find('/', authority + 3); slash != std::string_view::npos; slash = uri.find('/', slash + 1))
        out.emplace_back(uri.substr(0, slash));
    return out;
}

std::string_view last_segment(std::string_view uri) { return uri.substr(uri.rfind('/') + 1); }

}  // namespace

std::vector<ServedFile> SkillCatalog::add(SkillRecord record) {
    std::unique_lock lock(mutex_);
    if (skills_.contains(record.uri)) throw std::invalid_argument("a skill is served at " + record.uri + " already");
    std::size_t fresh_bytes = 0;
    std::vector<ServedFile> fresh;
    for (auto& file : record.files) {
        if (served_.contains(file.uri)) continue;
        fresh_bytes += file.content->size();
        fresh.push_back(std::move(file));
    }
    if (total_bytes_ + fresh_bytes > max_total_bytes_) {
        throw std::invalid_argument("skill " + record.uri + ": all skills together would pass " +
                                    std::to_string(max_total_bytes_) + " bytes (SkillsOptions::max_total_bytes)");
    }
    total_bytes_ += fresh_bytes;
    for (const auto& file : fresh) {
        served_.insert(file.uri);
        add_to_tree(file);
    }
    skills_.emplace(std::move(record.uri), std::move(record.entry));
    return fresh;
}

void SkillCatalog::add_to_tree(const ServedFile& file) {
    const auto parents = parent_directories(file.uri);
    for (std::size_t i = 0; i < parents.size(); ++i) {
        auto& children = directories_[parents[i]];
        if (i + 1 < parents.size())
            children.emplace(parents[i + 1],
                             Child{std::string(last_segment(parents[i + 1])), std::string(kDirectory), {}});
        else
            children.emplace(file.uri, Child{file.name, file.mime_type, file.content->size()});
    }
}

Page SkillCatalog::list(std::string_view after, std::size_t page_size) const {
    std::shared_lock lock(mutex_);
    Page page;
    auto it = after.empty() ? skills_.begin() : skills_.upper_bound(after);
    for (; it != skills_.end() && page.items.size() < page_size; ++it) page.items.emplace_back(it->second);
    if (it != skills_.end() && !page.items.empty()) page.last = std::prev(it)->first;
    return page;
}

std::optional<boost::json::object> SkillCatalog::get(std::string_view uri) const {
    std::shared_lock lock(mutex_);
    auto it = skills_.find(uri);
    if (it == skills_.end()) return std::nullopt;
    return it->second;
}

std::optional<Page> SkillCatalog::directory(std::string_view uri, std::string_view after, std::size_t page_size) const {
    std::shared_lock lock(mutex_);
    auto dir = directories_.find(uri);
    if (dir == directories_.end()) return std::nullopt;
    const auto& children = dir->second;
    Page page;
    auto it = after.empty() ? children.begin() : children.upper_bound(std::string(after));
    for (; it != children.end() && page.items.size() < page_size; ++it) {
        boost::json::object resource{{"uri", it->first}, {"name", it->second.name}, {"mimeType", it->second.mime_type}};
        if (it->second.size) resource["size"] = *it->second.size;
        page.items.emplace_back(std::move(resource));
    }
    if (it != children.end() && !page.items.empty()) page.last = std::prev(it)->first;
    return page;
}

}  // namespace mcp::detail
