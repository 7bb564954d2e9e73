// The host side of Skills: the index read lazily, and each file verified against it before anyone
// sees it, by the rules the server side serves by (the same frontmatter reader, the same digest).
#include <mcp/ext/skills_client.hpp>

#include "ext/skills/frontmatter.hpp"
#include "ext/skills/skill_record.hpp"
#include "util/base64.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace mcp {

namespace {

using Check = SkillVerificationError::Check;

std::string check_name(Check check) {
    switch (check) {
        case Check::unlisted: return "not listed";
        case Check::size: return "size mismatch";
        case Check::digest: return "digest mismatch";
        case Check::frontmatter: return "frontmatter mismatch";
        case Check::malformed: return "malformed read";
    }
    return "refused";
}

[[noreturn]] void malformed(const std::string& what) { throw ProtocolViolation("malformed skill entry: " + what); }

std::string string_field(const boost::json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_string()) malformed(std::string("no string ") + key);
    return std::string(v->get_string());
}

SkillEntry entry_from_wire(const boost::json::value& wire) {
    if (!wire.is_object()) malformed("not an object");
    const auto& o = wire.get_object();
    SkillEntry entry;
    entry.uri = string_field(o, "uri");
    const auto* frontmatter = o.if_contains("frontmatter");
    if (frontmatter == nullptr || !frontmatter->is_object()) malformed("no frontmatter object for " + entry.uri);
    entry.frontmatter = frontmatter->get_object();
    const auto* resources = o.if_contains("resources");
    if (resources == nullptr || !resources->is_array()) malformed("no resources array for " + entry.uri);
    for (const auto& r : resources->get_array()) {
        if (!r.is_object()) malformed("a resource of " + entry.uri + " is not an object");
        const auto& ro = r.get_object();
        const auto* size = ro.if_contains("size");
        if (size == nullptr || !(size->is_int64() || size->is_uint64()) || (size->is_int64() && size->get_int64() < 0))
            malformed("a resource of " + entry.uri + " has no size");
        entry.resources.push_back(
            {string_field(ro, "uri"), string_field(ro, "digest"),
             size->is_uint64() ? size->get_uint64() : static_cast<std::uint64_t>(size->get_int64())});
    }
    return entry;
}

Page<SkillEntry> skills_page(const boost::json::value& result) {
    const auto* o = result.if_object();
    const auto* skills = o != nullptr ? o->if_contains("skills") : nullptr;
    if (skills == nullptr || !skills->is_array())
        throw ProtocolViolation("malformed skills/list result: no skills array");
    Page<SkillEntry> page;
    for (const auto& s : skills->get_array()) page.items.push_back(entry_from_wire(s));
    if (const auto* cursor = o->if_contains("nextCursor"); cursor != nullptr && cursor->is_string())
        page.next_cursor = std::string(cursor->get_string());
    return page;
}

// The first key whose value differs, for the refusal's message.
std::string first_difference(const boost::json::object& file, const boost::json::object& entry) {
    for (const auto& kv : entry) {
        const auto* mine = file.if_contains(kv.key());
        if (mine == nullptr) return std::string(kv.key()) + " is in the entry, not in the file";
        if (*mine != kv.value())
            return std::string(kv.key()) + ": the file says " + boost::json::serialize(*mine) + ", the entry " +
                   boost::json::serialize(kv.value());
    }
    for (const auto& kv : file) {
        if (!entry.contains(kv.key())) return std::string(kv.key()) + " is in the file, not in the entry";
    }
    return "they differ";
}

// The content of the read that is the URI's, as bytes.
VerifiedSkillFile content_of(const ReadResourceResult& result, std::string_view uri) {
    for (const auto& contents : result.contents) {
        if (const auto* text = std::get_if<TextResourceContents>(&contents); text != nullptr && text->uri == uri)
            return {text->uri, text->mime_type, text->text};
        if (const auto* blob = std::get_if<BlobResourceContents>(&contents); blob != nullptr && blob->uri == uri) {
            auto bytes = detail::base64_decode(blob->blob);
            if (!bytes) throw SkillVerificationError(std::string(uri), Check::malformed, "its blob is not base64");
            return {blob->uri, blob->mime_type, std::move(*bytes)};
        }
    }
    throw SkillVerificationError(std::string(uri), Check::malformed, "the read holds no content for it");
}

bool sha256_form(std::string_view digest) {
    constexpr std::string_view prefix = "sha256:";
    if (!digest.starts_with(prefix) || digest.size() != prefix.size() + 64) return false;
    return std::all_of(digest.begin() + prefix.size(), digest.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

std::string SkillEntry::name() const {
    const auto* v = frontmatter.if_contains("name");
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::string SkillEntry::description() const {
    const auto* v = frontmatter.if_contains("description");
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

SkillVerificationError::SkillVerificationError(std::string uri, Check check, const std::string& detail)
    : ClientFailure("skill file " + uri + " refused (" + check_name(check) + "): " + detail),
      uri_(std::move(uri)),
      check_(check) {}

void SkillsClient::declare(ClientOptions& options) {
    auto& extensions = options.capabilities["extensions"];
    if (!extensions.is_object()) extensions = boost::json::object();
    extensions.get_object()[extension] = boost::json::object();
}

bool SkillsClient::offered() const {
    const auto* extensions = client_->server_capabilities().if_contains("extensions");
    return extensions != nullptr && extensions->is_object() && extensions->get_object().contains(extension);
}

std::vector<SkillEntry> SkillsClient::list(const CallOptions& options) {
    Pages<SkillEntry> pages(
        [this, options](const std::optional<std::string>& cursor) {
            boost::json::object params;
            if (cursor) params["cursor"] = *cursor;
            return skills_page(client_->request("skills/list", std::move(params), options));
        },
        1000);
    std::vector<SkillEntry> out;
    for (const auto& entry : pages) out.push_back(entry);
    return out;
}

SkillEntry SkillsClient::get(std::string_view uri, const CallOptions& options) {
    const auto result = client_->request("skills/get", {{"uri", uri}}, options);
    const auto* o = result.if_object();
    const auto* skill = o != nullptr ? o->if_contains("skill") : nullptr;
    if (skill == nullptr) throw ProtocolViolation("malformed skills/get result: no skill");
    return entry_from_wire(*skill);
}

VerifiedSkillFile SkillsClient::read(const SkillEntry& skill, std::string_view uri, const CallOptions& options) {
    const auto listed = std::find_if(skill.resources.begin(), skill.resources.end(),
                                     [&](const SkillFileRef& r) { return r.uri == uri; });
    if (listed == skill.resources.end())
        throw SkillVerificationError(std::string(uri), Check::unlisted,
                                     "the entry of " + skill.uri + " does not list it");
    if (!sha256_form(listed->digest))
        throw SkillVerificationError(std::string(uri), Check::digest,
                                     "the entry's digest \"" + listed->digest + "\" is no sha256 digest");

    auto file = content_of(client_->read_resource(uri, options), uri);
    if (file.content.size() != listed->size)
        throw SkillVerificationError(
            std::string(uri), Check::size,
            std::to_string(file.content.size()) + " bytes, the entry says " + std::to_string(listed->size));
    if (const auto digest = detail::sha256_digest(file.content); digest != listed->digest)
        throw SkillVerificationError(std::string(uri), Check::digest, digest + ", the entry says " + listed->digest);
    if (uri == skill.uri) {
        boost::json::object frontmatter;
        try {
            frontmatter = detail::parse_frontmatter(file.content);
        } catch (const std::invalid_argument& e) {
            throw SkillVerificationError(std::string(uri), Check::frontmatter, e.what());
        }
        if (frontmatter != skill.frontmatter)
            throw SkillVerificationError(std::string(uri), Check::frontmatter,
                                         first_difference(frontmatter, skill.frontmatter));
    }
    return file;
}

VerifiedSkillFile SkillsClient::load(const SkillEntry& skill, const CallOptions& options) {
    return read(skill, skill.uri, options);
}

}  // namespace mcp
