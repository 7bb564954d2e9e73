#pragma once
// The skills a server serves: each skill's entry (skills/list, skills/get), and the tree of
// directories over their files (resources/directory/read). Filled by Skills::add, read by the
// extension's methods on any thread.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// One file as served: its resource URI and metadata, and its bytes.
struct ServedFile {
    std::string uri;
    std::string name;  // the last segment
    std::string mime_type;
    std::shared_ptr<const std::string> content;
    bool text = true;  // UTF-8 served as text; anything else as a base64 blob
};

struct SkillRecord {
    std::string uri;            // of its SKILL.md
    boost::json::object entry;  // {uri, frontmatter, resources}
    std::vector<ServedFile> files;
    std::size_t bytes = 0;
};

struct Page {
    boost::json::array items;
    std::optional<std::string> last;  // the key to continue after, when more follow
};

class SkillCatalog {
public:
    explicit SkillCatalog(std::size_t max_total_bytes) : max_total_bytes_(max_total_bytes) {}

    // Adds the skill and returns its files not served before (a nested skill's files are its
    // enclosing skill's too). Throws std::invalid_argument when its URI is taken or the total
    // budget would be passed.
    std::vector<ServedFile> add(SkillRecord record);

    // skills/list: entries in URI order after `after`.
    Page list(std::string_view after, std::size_t page_size) const;
    // skills/get: nullopt for a URI that is no skill's.
    std::optional<boost::json::object> get(std::string_view uri) const;
    // resources/directory/read: the children after `after` (files' Resource metadata, directories
    // with inode/directory); nullopt for a URI that is not a directory served.
    std::optional<Page> directory(std::string_view uri, std::string_view after, std::size_t page_size) const;

private:
    struct Child {
        std::string name;
        std::string mime_type;
        std::optional<std::size_t> size;  // files only
    };
    void add_to_tree(const ServedFile& file);

    std::size_t max_total_bytes_;
    mutable std::shared_mutex mutex_;
    std::size_t total_bytes_ = 0;
    std::map<std::string, boost::json::object, std::less<>> skills_;  // SKILL.md URI -> entry
    std::set<std::string, std::less<>> served_;                       // every file URI
    std::map<std::string, std::map<std::string, Child>, std::less<>> directories_;
};

}  // namespace mcp::detail
