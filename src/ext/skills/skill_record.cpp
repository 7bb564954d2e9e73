#include "ext/skills/skill_record.hpp"

#include "ext/skills/frontmatter.hpp"
#include "util/base64.hpp"
#include "util/utf8.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kScheme = "skill://";
constexpr std::size_t kMaxPathBytes = 1024;
constexpr std::size_t kMaxDescription = 1024;
constexpr std::string_view kReservedMetadataPrefix = "io.modelcontextprotocol/";

// RFC 3986: unreserved and sub-delims (a reg-name), plus ':' and '@' in a path segment. '%' is
// left out so that a segment is its own percent-decoding.
constexpr std::string_view kRegName = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=";

bool segment_chars(std::string_view segment, bool authority) {
    return std::all_of(segment.begin(), segment.end(), [authority](char c) {
        return kRegName.find(c) != std::string_view::npos || (!authority && (c == ':' || c == '@'));
    });
}

std::vector<std::string_view> split(std::string_view path) {
    std::vector<std::string_view> out;
    while (true) {
        const auto slash = path.find('/');
        out.push_back(path.substr(0, slash));
        if (slash == std::string_view::npos) return out;
        path.remove_prefix(slash + 1);
    }
}

// A file path as a URI path: segments kept as they are when they can be, percent-encoded else.
std::string uri_path(std::string_view file_path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : file_path) {
        if (c == '/' || kRegName.find(static_cast<char>(c)) != std::string_view::npos || c == ':' || c == '@') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

void check_skill_path(std::string_view path) {
    if (path.empty() || path.size() > kMaxPathBytes) throw std::invalid_argument("needs a path of 1 to 1024 bytes");
    const auto segments = split(path);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const auto s = segments[i];
        if (s.empty() || s == "." || s == ".." || !segment_chars(s, i == 0)) {
            throw std::invalid_argument("path segment \"" + std::string(s) +
                                        "\" must be non-empty URI characters (letters, digits, - . _ ~ ! $ & ' ( ) * + "
                                        ", ; =" +
                                        std::string(i == 0 ? "" : " : @") + ")");
        }
    }
}

void check_file_path(std::string_view path) {
    if (path.empty() || path.size() > kMaxPathBytes)
        throw std::invalid_argument("a file needs a path of 1 to 1024 bytes");
    if (path == "SKILL.md") throw std::invalid_argument("SKILL.md is the skill's skill_md, not one of its files");
    Utf8Checker utf8;
    for (unsigned char c : path) {
        if (c < 0x20 || c == 0x7f || c == '\\' || !utf8.feed(c))
            throw std::invalid_argument("file path \"" + std::string(path) +
                                        "\" holds a control character, a "
                                        "backslash or invalid UTF-8");
    }
    for (auto s : split(path)) {
        if (s.empty() || s == "." || s == "..")
            throw std::invalid_argument("file path \"" + std::string(path) + "\" must be relative, without . or ..");
    }
}

bool is_utf8_text(std::string_view bytes) {
    Utf8Checker utf8;
    for (unsigned char c : bytes) {
        if (c == 0 || !utf8.feed(c)) return false;
    }
    return utf8.complete();
}

std::string mime_of(std::string_view path, bool text) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 22> kTypes{{
        {".md", "text/markdown"},      {".markdown", "text/markdown"}, {".txt", "text/plain"},
        {".html", "text/html"},        {".htm", "text/html"},          {".css", "text/css"},
        {".csv", "text/csv"},          {".js", "text/javascript"},     {".mjs", "text/javascript"},
        {".json", "application/json"}, {".yaml", "application/yaml"},  {".yml", "application/yaml"},
        {".xml", "application/xml"},   {".py", "text/x-python"},       {".sh", "application/x-sh"},
        {".ts", "text/plain"},         {".png", "image/png"},          {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},       {".gif", "image/gif"},          {".svg", "image/svg+xml"},
        {".pdf", "application/pdf"},
    }};
    const auto dot = path.rfind('.');
    if (dot != std::string_view::npos && path.find('/', dot) == std::string_view::npos) {
        std::string ext(path.substr(dot));
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
        for (const auto& [suffix, type] : kTypes) {
            if (suffix == ext) return std::string(type);
        }
    }
    return text ? "text/plain" : "application/octet-stream";
}

void check_frontmatter(const boost::json::object& fm, std::string_view name_segment) {
    const auto* name = fm.if_contains("name");
    if (name == nullptr || !name->is_string() || name->get_string().empty())
        throw std::invalid_argument("the frontmatter needs a name");
    if (!valid_skill_name(name->get_string())) {
        throw std::invalid_argument("the name \"" + std::string(name->get_string()) +
                                    "\" must be 1 to 64 lowercase letters, digits and single hyphens, no hyphen "
                                    "first or last");
    }
    if (name->get_string() != name_segment) {
        throw std::invalid_argument("the frontmatter's name \"" + std::string(name->get_string()) +
                                    "\" must be the last segment of the skill's path (\"" + std::string(name_segment) +
                                    "\")");
    }
    const auto* description = fm.if_contains("description");
    if (description == nullptr || !description->is_string() || description->get_string().empty() ||
        description->get_string().size() > kMaxDescription) {
        throw std::invalid_argument("the frontmatter needs a description of 1 to 1024 characters");
    }
    if (const auto* metadata = fm.if_contains("metadata"); metadata != nullptr && metadata->is_object()) {
        for (const auto& kv : metadata->get_object()) {
            if (kv.key().starts_with(kReservedMetadataPrefix)) {
                throw std::invalid_argument("metadata key \"" + std::string(kv.key()) +
                                            "\": keys under io.modelcontextprotocol/ are reserved for MCP extensions");
            }
        }
    }
}

ServedFile served(std::string uri, std::string_view name, std::string content, const std::string& mime_type) {
    const bool text = is_utf8_text(content);
    ServedFile file;
    file.uri = std::move(uri);
    file.name = std::string(name);
    file.mime_type = mime_type.empty() ? mime_of(name, text) : mime_type;
    file.content = std::make_shared<const std::string>(std::move(content));
    file.text = text;
    return file;
}

}  // namespace

bool valid_skill_name(std::string_view name) {
    if (name.empty() || name.size() > 64 || name.front() == '-' || name.back() == '-') return false;
    if (name.find("--") != std::string_view::npos) return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

std::string sha256_digest(std::string_view bytes) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md.data(), &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "sha256:";
    for (unsigned int i = 0; i < size; ++i) {
        out += kHex[md[i] >> 4];
        out += kHex[md[i] & 15];
    }
    return out;
}

SkillRecord make_skill_record(Skill skill) {
    try {
        check_skill_path(skill.path);
        const auto segments = split(skill.path);
        auto frontmatter = parse_frontmatter(skill.skill_md);
        check_frontmatter(frontmatter, segments.back());

        if (skill.files.size() + 1 > kMaxSkillFiles)
            throw std::invalid_argument("more than 512 files, SKILL.md included");
        std::size_t bytes = skill.skill_md.size();
        std::set<std::string_view> paths;
        for (const auto& f : skill.files) {
            check_file_path(f.path);
            if (!paths.insert(f.path).second) throw std::invalid_argument("the file " + f.path + " appears twice");
            bytes += f.content.size();
        }
        if (bytes > kMaxSkillBytes) throw std::invalid_argument("more than 16 MiB of files, SKILL.md included");

        const std::string root = std::string(kScheme) + skill.path;
        SkillRecord record;
        record.uri = root + "/SKILL.md";
        record.bytes = bytes;
        boost::json::array resources;
        auto add = [&](ServedFile file) {
            resources.push_back(boost::json::object{
                {"uri", file.uri}, {"digest", sha256_digest(*file.content)}, {"size", file.content->size()}});
            record.files.push_back(std::move(file));
        };
        add(served(record.uri, "SKILL.md", std::move(skill.skill_md), "text/markdown"));
        std::sort(skill.files.begin(), skill.files.end(),
                  [](const SkillFile& a, const SkillFile& b) { return a.path < b.path; });
        for (auto& f : skill.files) {
            const auto name = std::string_view(f.path).substr(f.path.rfind('/') + 1);
            add(served(root + "/" + uri_path(f.path), name, std::move(f.content), f.mime_type));
        }
        record.entry = {
            {"uri", record.uri}, {"frontmatter", std::move(frontmatter)}, {"resources", std::move(resources)}};
        return record;
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("skill " + skill.path + ": " + e.what());
    }
}

}  // namespace mcp::detail
