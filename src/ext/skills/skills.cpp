// The Skills extension on a Server: skills/list, skills/get and resources/directory/read over the
// catalog, and each skill file registered as a resource. Built on the public API only.
#include <mcp/ext/skills.hpp>

#include "ext/skills/skill_catalog.hpp"
#include "ext/skills/skill_directory.hpp"
#include "ext/skills/skill_record.hpp"
#include "util/base64.hpp"

#include <boost/describe.hpp>

#include <optional>
#include <stdexcept>

namespace mcp {

namespace detail {

namespace {

constexpr std::string_view kExtension = "io.modelcontextprotocol/skills";
constexpr std::string_view kCursorPurpose = "skills-cursor";

struct ListSkillsParams {
    std::optional<std::string> cursor;
};
BOOST_DESCRIBE_STRUCT(ListSkillsParams, (), (cursor))

struct GetSkillParams {
    std::string uri;
};
BOOST_DESCRIBE_STRUCT(GetSkillParams, (), (uri))

struct ReadDirectoryParams {
    std::string uri;
    std::optional<std::string> cursor;
};
BOOST_DESCRIBE_STRUCT(ReadDirectoryParams, (), (uri, cursor))

// Cursors are sealed over what they page through ("skills", or a directory's URI), so that one
// cannot be replayed against another listing or forged.
std::string seal_cursor(Server& server, std::string_view listing, const std::string& last) {
    return server.key_ring().seal(kCursorPurpose, std::string(listing) + '\n' + last);
}

std::string open_cursor(Server& server, std::string_view listing, const std::optional<std::string>& cursor) {
    if (!cursor || cursor->empty()) return {};
    auto plain = server.key_ring().open(kCursorPurpose, *cursor);
    if (!plain || !plain->starts_with(std::string(listing) + '\n')) throw InvalidParams("Invalid cursor");
    return plain->substr(listing.size() + 1);
}

boost::json::object page_result(Server& server, std::string_view key, std::string_view listing, Page page) {
    boost::json::object result{{key, std::move(page.items)}};
    if (page.last) result["nextCursor"] = seal_cursor(server, listing, *page.last);
    return result;
}

ResourceContents contents_of(const ServedFile& file) {
    if (file.text) return TextResourceContents{file.uri, file.mime_type, *file.content, {}};
    return BlobResourceContents{file.uri, file.mime_type, base64_encode(as_bytes(*file.content)), {}};
}

void register_file(Server& server, const ServedFile& file, const boost::json::object* frontmatter) {
    ResourceSpec spec;
    spec.name = file.name;
    spec.mime_type = file.mime_type;
    spec.size = file.content->size();
    spec.runs_inline = true;  // the bytes are in memory
    if (frontmatter != nullptr) {
        // SKILL.md: named and described by its frontmatter (SEP-2640, Resource Metadata).
        spec.name = std::string(frontmatter->at("name").as_string());
        spec.description = std::string(frontmatter->at("description").as_string());
    }
    if (file.text) {
        server.resource(file.uri, std::move(spec), [file] { return contents_of(file); });
    } else {
        // Encoded once: every read sends the same base64.
        auto blob = std::make_shared<const ResourceContents>(contents_of(file));
        server.resource(file.uri, std::move(spec), [blob] { return *blob; });
    }
}

}  // namespace

}  // namespace detail

Skills::Skills(Server& server, SkillsOptions options)
    : server_(&server), options_(options), catalog_(std::make_shared<detail::SkillCatalog>(options.max_total_bytes)) {
    boost::json::object settings;
    if (options_.directory_read) settings["directoryRead"] = true;
    auto extension = server.extension(std::string(detail::kExtension), std::move(settings));
    auto catalog = catalog_;
    Server* s = server_;

    extension.method({.name = "skills/list", .cache = MethodCache::list, .runs_inline = true},
                     [catalog, s](const detail::ListSkillsParams& in) {
                         const auto after = detail::open_cursor(*s, "skills", in.cursor);
                         return detail::page_result(*s, "skills", "skills",
                                                    catalog->list(after, s->options().page_size));
                     });
    extension.method({.name = "skills/get", .cache = MethodCache::read, .runs_inline = true},
                     [catalog](const detail::GetSkillParams& in) {
                         auto entry = catalog->get(in.uri);
                         if (!entry) throw InvalidParams("No skill is served at " + in.uri);
                         return boost::json::object{{"skill", std::move(*entry)}};
                     });
    if (!options_.directory_read) return;
    extension.method({.name = "resources/directory/read", .runs_inline = true},
                     [catalog, s](const detail::ReadDirectoryParams& in) {
                         const auto after = detail::open_cursor(*s, in.uri, in.cursor);
                         auto page = catalog->directory(in.uri, after, s->options().page_size);
                         if (!page) throw InvalidParams(in.uri + " is not a directory resource");
                         return detail::page_result(*s, "resources", in.uri, std::move(*page));
                     });
}

void Skills::add(Skill skill) {
    auto record = detail::make_skill_record(std::move(skill));
    const auto uri = record.uri;
    const auto frontmatter = record.entry.at("frontmatter").as_object();
    for (const auto& file : catalog_->add(std::move(record)))
        detail::register_file(*server_, file, file.uri == uri ? &frontmatter : nullptr);
}

void Skills::add_directory_skill(const std::filesystem::path& directory, std::string path) {
    add(read_directory(directory, std::move(path)));
}

std::size_t Skills::add_directory(const std::filesystem::path& root) {
    const auto found = detail::find_skill_directories(root);
    for (const auto& [directory, path] : found) add_directory_skill(directory, path);
    return found.size();
}

Skill Skills::read_directory(const std::filesystem::path& directory, std::string path) {
    return detail::read_skill_directory(directory, std::move(path));
}

}  // namespace mcp
