#pragma once
// The host side of the Skills extension (io.modelcontextprotocol/skills, SEP-2640) over an
// mcp::Client. Listing reads the index only (skills/list, skills/get): no file of a skill is
// fetched until the host asks for it. A file is then read with resources/read and handed over only
// when it is one the skill's entry lists, its size and SHA-256 digest are the entry's, and, for a
// SKILL.md, its YAML frontmatter equals the entry's field by field. Anything else throws
// mcp::SkillVerificationError, and the content goes nowhere.
//
//   mcp::ClientOptions options;
//   mcp::SkillsClient::declare(options);
//   mcp::Client client(transport, options);
//   client.connect();
//   mcp::SkillsClient skills(client);
//   for (const mcp::SkillEntry& skill : skills.list()) std::cout << skill.name() << '\n';
//   mcp::VerifiedSkillFile md = skills.load(chosen);                          // its SKILL.md
//   mcp::VerifiedSkillFile form = skills.read(chosen, chosen.resources[1].uri);  // a file it names
#include <mcp/client/client.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

// One file of a skill as its entry lists it.
struct SkillFileRef {
    std::string uri;
    std::string digest;  // "sha256:" and 64 lowercase hex digits
    std::uint64_t size = 0;
};

// A skill's entry: what a host decides on before it loads anything.
struct SkillEntry {
    std::string uri;  // of its SKILL.md
    boost::json::object frontmatter;
    std::vector<SkillFileRef> resources;  // SKILL.md included

    // The frontmatter's name and description; empty when they are not strings.
    std::string name() const;
    std::string description() const;
};

// A file whose bytes matched its entry.
struct VerifiedSkillFile {
    std::string uri;
    std::string mime_type;
    std::string content;  // the bytes: a text's UTF-8, a blob decoded
};

// A skill file refused: read() sends nothing for an unlisted URI, and hands over nothing else.
class SkillVerificationError : public ClientFailure {
public:
    enum class Check {
        unlisted,     // the entry does not list the URI
        size,         // the bytes' length is not the entry's size
        digest,       // their SHA-256 is not the entry's digest (or the digest is of no known form)
        frontmatter,  // a SKILL.md whose frontmatter is not the entry's, or cannot be read
        malformed,    // the read's result holds no content for the URI, or a blob that is no base64
    };
    SkillVerificationError(std::string uri, Check check, const std::string& detail);
    const std::string& uri() const noexcept { return uri_; }
    Check check() const noexcept { return check_; }

private:
    std::string uri_;
    Check check_;
};

class SkillsClient {
public:
    static constexpr std::string_view extension = "io.modelcontextprotocol/skills";

    // Declares the extension in the capabilities of a client about to be made.
    static void declare(ClientOptions& options);

    // The client must be connected, and outlive this.
    explicit SkillsClient(Client& client) : client_(&client) {}

    // Whether the server declared the extension.
    bool offered() const;

    // skills/list, every page. Reads no file.
    std::vector<SkillEntry> list(const CallOptions& options = {});
    // skills/get: one skill's entry by its SKILL.md URI. Reads no file.
    SkillEntry get(std::string_view uri, const CallOptions& options = {});

    // Reads one file the entry lists and verifies it (above). Throws SkillVerificationError, or
    // what the read throws.
    VerifiedSkillFile read(const SkillEntry& skill, std::string_view uri, const CallOptions& options = {});
    // Loads the skill: read(skill, skill.uri), its SKILL.md with the frontmatter compared.
    VerifiedSkillFile load(const SkillEntry& skill, const CallOptions& options = {});

private:
    Client* client_;
};

}  // namespace mcp
