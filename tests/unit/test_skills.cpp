// The Skills extension (SEP-2640): SKILL.md frontmatter as JSON (and hostile YAML), the rules a
// skill is checked against, skills from disk (and hostile trees), and the extension's methods and
// resources through the real core.
#include "server_fixture.hpp"

#include "ext/skills/frontmatter.hpp"
#include "ext/skills/skill_record.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>
#include <random>

using namespace testing_support;
namespace fs = std::filesystem;

namespace {

boost::json::object fm(std::string_view yaml) {
    return mcp::detail::parse_frontmatter("---\n" + std::string(yaml) + "\n---\n# Body\n");
}

std::string skill_md(std::string_view name, std::string_view extra = "") {
    return "---\nname: " + std::string(name) + "\ndescription: The " + std::string(name) + " skill\n" +
           std::string(extra) + "---\n\n# " + std::string(name) + "\n";
}

boost::json::object meta(boost::json::object caps = {}) {
    return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
            {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

// A scratch directory removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device rd;
        path = fs::temp_directory_path() / ("mcp-skills-" + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    void write(const fs::path& relative, std::string_view content) const {
        fs::create_directories((path / relative).parent_path());
        std::ofstream(path / relative, std::ios::binary) << content;
    }
};

}  // namespace

TEST(SkillFrontmatter, YamlBecomesJsonTypedAsByTheCoreSchema) {
    const auto o =
        fm("name: pdf\ndescription: >-\n  folded\n  text\nlicense: 'Apache-2.0'\nn: 12\nneg: -3\nhex: 0x1F\noct: 0o17\n"
           "f: 1.5\ne: 2e3\nyes: true\nno: False\nnothing: ~\nempty:\nversion: 2.1.0\nquoted: \"42\"\ntagged: !!str 7\n"
           "list: [a, 1, {k: v}]\nblock: |\n  line 1\n  line 2\nmetadata:\n  author: me\n  nested:\n    - x\n    - y\n"
           "big: 123456789012345678901234567890\n");
    EXPECT_EQ(o.at("description"), "folded text");
    EXPECT_EQ(o.at("license"), "Apache-2.0");
    EXPECT_EQ(o.at("n"), 12);
    EXPECT_EQ(o.at("neg"), -3);
    EXPECT_EQ(o.at("hex"), 31);
    EXPECT_EQ(o.at("oct"), 15);
    EXPECT_EQ(o.at("f"), 1.5);
    EXPECT_EQ(o.at("e"), 2000.0);
    EXPECT_EQ(o.at("yes"), true);
    EXPECT_EQ(o.at("no"), false);
    EXPECT_TRUE(o.at("nothing").is_null());
    EXPECT_TRUE(o.at("empty").is_null());
    EXPECT_EQ(o.at("version"), "2.1.0");
    EXPECT_EQ(o.at("quoted"), "42");
    EXPECT_EQ(o.at("tagged"), "7");
    EXPECT_EQ(o.at("list"), boost::json::parse(R"(["a",1,{"k":"v"}])"));
    EXPECT_EQ(o.at("block"), "line 1\nline 2\n");
    EXPECT_EQ(o.at("metadata"), boost::json::parse(R"({"author":"me","nested":["x","y"]})"));
    EXPECT_TRUE(o.at("big").is_double());
}

TEST(SkillFrontmatter, DelimitersFollowTheFileNotTheFirstDashes) {
    EXPECT_EQ(mcp::detail::parse_frontmatter("\xEF\xBB\xBF---\r\nname: a\r\n---\r\nbody").at("name"), "a");
    const auto o =
        mcp::detail::parse_frontmatter("---\nname: a\ntext: x---y\nblock: |\n  ---\n  ----\nstill: yaml\n---  \nbody");
    EXPECT_EQ(o.at("still"), "yaml");
    EXPECT_EQ(o.at("block"), "---\n----\n");
    EXPECT_EQ(mcp::detail::parse_frontmatter("---\nname: a\n---").at("name"), "a");
}

TEST(SkillFrontmatter, HostileOrBrokenYamlIsRefusedWithAClearError) {
    const std::vector<std::string> bad = {
        "# no frontmatter\n",
        "---\nname: a\n",                // never closed
        "---\n---\n",                    // empty
        "---\n- a\n- b\n---\n",          // not a mapping
        "---\nplain\n---\n",             // a scalar
        "---\nname: [unclosed\n---\n",   // YAML error
        "---\na: &x 1\nb: *x\n---\n",    // alias
        "---\nname: a\nname: b\n---\n",  // duplicate key
        "---\n? [a, b]\n: c\n---\n",     // non-scalar key
        "---\nv: !custom x\n---\n",      // unknown tag
        "---\nv: .inf\n---\n",           // no JSON form
        "---\nv: -.Inf\n---\n",          //
        "---\nv: .nan\n---\n",           //
        "---\nv: 1e999\n---\n",          // out of range
        "---\nv: !!int abc\n---\n",      // tag that does not fit
        "---\na: 1\n...\nb: 2\n---\n",   // the block is one document
        "---\n\ta: 1\n---\n",            // tab indentation
    };
    for (const auto& text : bad) EXPECT_THROW(mcp::detail::parse_frontmatter(text), std::invalid_argument) << text;

    std::string deep = "---\nv: ";
    for (int i = 0; i < 40; ++i) deep += "[";
    EXPECT_THROW(mcp::detail::parse_frontmatter(deep + "\n---\n"), std::invalid_argument);
    std::string deep_ok = "---\nv: " + std::string(30, '[') + std::string(30, ']') + "\n---\n";
    EXPECT_NO_THROW(mcp::detail::parse_frontmatter(deep_ok));
    std::string huge = "---\nv: " + std::string(70 * 1024, 'x') + "\n---\n";
    EXPECT_THROW(mcp::detail::parse_frontmatter(huge), std::invalid_argument);
    std::string many = "---\nv: [";
    for (int i = 0; i < 5000; ++i) many += "1,";
    EXPECT_THROW(mcp::detail::parse_frontmatter(many + "1]\n---\n"), std::invalid_argument);
    std::string binary("---\nv: \xff\xfe\x00\x01\n---\n", 16);
    EXPECT_THROW(mcp::detail::parse_frontmatter(binary), std::invalid_argument);
}

TEST(SkillRecord, EntryCarriesFrontmatterDigestsAndSizes) {
    auto record = mcp::detail::make_skill_record(
        {.path = "acme/billing/refunds",
         .skill_md = skill_md("refunds", "license: MIT\n"),
         .files = {{.path = "z.md", .content = "zz"}, {.path = "examples/an email.md", .content = "hello"}}});
    EXPECT_EQ(record.uri, "skill://acme/billing/refunds/SKILL.md");
    const auto& entry = record.entry;
    EXPECT_EQ(entry.at("frontmatter").at("license"), "MIT");
    const auto& resources = entry.at("resources").as_array();
    ASSERT_EQ(resources.size(), 3u);
    EXPECT_EQ(resources[0].at("uri"), boost::json::value(record.uri));
    EXPECT_EQ(resources[0].at("size"), skill_md("refunds", "license: MIT\n").size());
    // A file name outside URI path characters is percent-encoded; entries are in path order.
    EXPECT_EQ(resources[1].at("uri"), "skill://acme/billing/refunds/examples/an%20email.md");
    EXPECT_EQ(resources[2].at("uri"), "skill://acme/billing/refunds/z.md");
    // SHA-256("hello"), the test vector everyone knows.
    EXPECT_EQ(resources[1].at("digest"), "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    EXPECT_EQ(resources[1].at("size"), 5);
}

TEST(SkillRecord, RulesOfTheSpecAreEnforced) {
    auto refused = [](mcp::Skill skill) {
        EXPECT_THROW(mcp::detail::make_skill_record(std::move(skill)), std::invalid_argument);
    };
    refused({.path = "other", .skill_md = skill_md("pdf")});  // name is not the last segment
    refused({.path = "Pdf", .skill_md = skill_md("Pdf")});    // uppercase
    refused({.path = "a--b", .skill_md = skill_md("a--b")});  // double hyphen
    refused({.path = "-ab", .skill_md = skill_md("-ab")});    // leading hyphen
    refused({.path = std::string(65, 'a'), .skill_md = skill_md(std::string(65, 'a'))});
    refused({.path = "", .skill_md = skill_md("a")});
    refused({.path = "x//a", .skill_md = skill_md("a")});
    refused({.path = "../a", .skill_md = skill_md("a")});
    refused({.path = "ho st/a", .skill_md = skill_md("a")});
    refused({.path = "h:1/a", .skill_md = skill_md("a")});      // ':' not in a reg-name
    refused({.path = "a", .skill_md = "---\nname: a\n---\n"});  // no description
    refused({.path = "a", .skill_md = "---\nname: a\ndescription: \"\"\n---\n"});
    refused({.path = "a", .skill_md = "---\nname: a\ndescription: " + std::string(1025, 'd') + "\n---\n"});
    refused({.path = "a", .skill_md = "---\nname: 7\ndescription: d\n---\n"});
    refused({.path = "a", .skill_md = skill_md("a", "metadata:\n  io.modelcontextprotocol/x: 1\n")});
    refused({.path = "a", .skill_md = skill_md("a"), .files = {{.path = "SKILL.md", .content = "x"}}});
    refused({.path = "a", .skill_md = skill_md("a"), .files = {{.path = "../x", .content = "x"}}});
    refused({.path = "a", .skill_md = skill_md("a"), .files = {{.path = "/etc/passwd", .content = "x"}}});
    refused({.path = "a", .skill_md = skill_md("a"), .files = {{.path = "b\\c", .content = "x"}}});
    refused({.path = "a", .skill_md = skill_md("a"), .files = {{.path = "x\ny", .content = "x"}}});
    refused({.path = "a",
             .skill_md = skill_md("a"),
             .files = {{.path = "d", .content = "1"}, {.path = "d", .content = "2"}}});

    mcp::Skill too_many{.path = "a", .skill_md = skill_md("a")};
    for (int i = 0; i < 512; ++i) too_many.files.push_back({.path = std::to_string(i) + ".md", .content = "x"});
    refused(too_many);
    too_many.files.pop_back();
    EXPECT_NO_THROW(mcp::detail::make_skill_record(too_many));  // 511 files and SKILL.md: at the limit
    refused(
        {.path = "a", .skill_md = skill_md("a"), .files = {{.path = "big", .content = std::string(16 << 20, 'x')}}});
}

namespace {

class Skills : public ServerTest {
protected:
    static mcp::ServerOptions small_pages() {
        mcp::ServerOptions o;
        o.page_size = 2;
        return o;
    }
    Skills() : ServerTest(small_pages()) {}

    void SetUp() override {
        skills = std::make_unique<mcp::Skills>(server);
        skills->add({.path = "pdf",
                     .skill_md = skill_md("pdf"),
                     .files = {{.path = "templates/invoice.md", .content = "# Invoice\n"},
                               {.path = "templates/regional/eu.md", .content = "# EU\n"},
                               {.path = "logo.png", .content = std::string("\x89PNG\0\x01", 6)}}});
        skills->add({.path = "git", .skill_md = skill_md("git")});
        skills->add({.path = "acme/ops/deploy", .skill_md = skill_md("deploy")});
    }

    std::vector<boost::json::value> list_all(std::string_view method, boost::json::object params,
                                             std::string_view key) {
        std::vector<boost::json::value> out;
        for (int pages = 0; pages < 20; ++pages) {
            auto page = result(method, params);
            for (auto& item : page.at(key).as_array()) out.push_back(item);
            const auto* next = page.as_object().if_contains("nextCursor");
            if (next == nullptr) return out;
            params["cursor"] = *next;
        }
        ADD_FAILURE() << "did not end";
        return out;
    }

    std::unique_ptr<mcp::Skills> skills;
};

}  // namespace

TEST_F(Skills, DeclaredWithDirectoryReadAndListedPageByPage) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    const auto caps = result("server/discover", {{"_meta", meta()}}).at("capabilities");
    EXPECT_EQ(caps.at("extensions").at("io.modelcontextprotocol/skills"),
              boost::json::parse(R"({"directoryRead":true})"));

    connect_and_initialize();
    const auto listed = list_all("skills/list", {}, "skills");
    ASSERT_EQ(listed.size(), 3u);
    EXPECT_EQ(listed[0].at("uri"), "skill://acme/ops/deploy/SKILL.md");
    EXPECT_EQ(listed[1].at("uri"), "skill://git/SKILL.md");
    EXPECT_EQ(listed[2].at("uri"), "skill://pdf/SKILL.md");
    EXPECT_EQ(listed[2].at("resources").as_array().size(), 4u);
}

TEST_F(Skills, GetReturnsTheEntryAndRefusesWhatIsNoSkill) {
    conn = std::make_unique<mcp::LocalConnection>(server);
    const auto got = result("skills/get", {{"uri", "skill://pdf/SKILL.md"}, {"_meta", meta()}});
    EXPECT_EQ(got.at("skill").at("frontmatter").at("name"), "pdf");
    EXPECT_TRUE(got.as_object().contains("ttlMs"));  // a cacheable result on 2026-07-28
    EXPECT_FALSE(got.as_object().contains("nextCursor"));
    for (const char* uri : {"skill://nope/SKILL.md", "skill://pdf", "skill://pdf/templates/invoice.md", ""}) {
        EXPECT_EQ(error_code("skills/get", {{"uri", uri}, {"_meta", meta()}}), mcp::error_code::invalid_params) << uri;
    }
    EXPECT_EQ(error_code("skills/get", {{"_meta", meta()}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("skills/get", {{"uri", 5}, {"_meta", meta()}}), mcp::error_code::invalid_params);
}

TEST_F(Skills, EveryFileIsAResourceWhoseBytesMatchTheManifest) {
    connect_and_initialize();
    const auto entry = result("skills/get", {{"uri", "skill://pdf/SKILL.md"}}).at("skill");
    for (const auto& r : entry.at("resources").as_array()) {
        const auto contents = result("resources/read", {{"uri", r.at("uri")}}).at("contents").at(0);
        std::string bytes;
        if (const auto* text = contents.as_object().if_contains("text")) {
            bytes = std::string(text->as_string());
        } else {
            // The PNG: a blob. Compare its length through the manifest size, and its digest below.
            EXPECT_EQ(contents.at("mimeType"), "image/png");
            EXPECT_EQ(contents.at("blob"), "iVBORwAB");
            bytes = std::string("\x89PNG\0\x01", 6);
        }
        EXPECT_EQ(r.at("size"), bytes.size()) << r;
        EXPECT_EQ(r.at("digest"), boost::json::value(mcp::detail::sha256_digest(bytes))) << r;
    }
    // SKILL.md is named and described by its frontmatter in resources/list.
    bool found = false;
    for (const auto& r : list_all("resources/list", {}, "resources")) {
        if (r.at("uri") != "skill://pdf/SKILL.md") continue;
        found = true;
        EXPECT_EQ(r.at("name"), "pdf");
        EXPECT_EQ(r.at("description"), "The pdf skill");
        EXPECT_EQ(r.at("mimeType"), "text/markdown");
    }
    EXPECT_TRUE(found);
}

TEST_F(Skills, DirectoriesListTheirDirectChildren) {
    connect_and_initialize();
    auto children = list_all("resources/directory/read", {{"uri", "skill://pdf"}}, "resources");
    std::vector<std::string> uris;
    for (const auto& c : children) uris.emplace_back(c.at("uri").as_string());
    EXPECT_EQ(uris,
              (std::vector<std::string>{"skill://pdf/SKILL.md", "skill://pdf/logo.png", "skill://pdf/templates"}));
    EXPECT_EQ(children[2].at("mimeType"), "inode/directory");
    EXPECT_EQ(children[0].at("size"), skill_md("pdf").size());
    children = list_all("resources/directory/read", {{"uri", "skill://pdf/templates"}}, "resources");
    ASSERT_EQ(children.size(), 2u);
    EXPECT_EQ(children[1].at("uri"), "skill://pdf/templates/regional");
    // Prefix levels of a nested skill path are directories too.
    EXPECT_EQ(list_all("resources/directory/read", {{"uri", "skill://acme"}}, "resources").at(0).at("uri"),
              "skill://acme/ops");

    for (const char* uri :
         {"skill://pdf/SKILL.md", "skill://pdf/", "skill://nope", "skill:", "", "skill://pdf/templates/x"})
        EXPECT_EQ(error_code("resources/directory/read", {{"uri", uri}}), mcp::error_code::invalid_params) << uri;
}

TEST_F(Skills, CursorsCannotBeForgedOrReplayedElsewhere) {
    connect_and_initialize();
    const auto cursor = result("skills/list").at("nextCursor");
    EXPECT_EQ(error_code("skills/list", {{"cursor", "garbage"}}), mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("resources/directory/read", {{"uri", "skill://pdf"}, {"cursor", cursor}}),
              mcp::error_code::invalid_params);
    const auto dir_cursor = result("resources/directory/read", {{"uri", "skill://pdf"}}).at("nextCursor");
    EXPECT_EQ(error_code("resources/directory/read", {{"uri", "skill://pdf/templates"}, {"cursor", dir_cursor}}),
              mcp::error_code::invalid_params);
    EXPECT_EQ(error_code("skills/list", {{"cursor", 12}}), mcp::error_code::invalid_params);
}

TEST_F(Skills, DuplicatesAndASecondDeclarationAreRefused) {
    EXPECT_THROW(skills->add({.path = "git", .skill_md = skill_md("git")}), std::invalid_argument);
    EXPECT_THROW(mcp::Skills again(server), std::invalid_argument);
    mcp::Server small({.name = "small", .version = "1"});
    mcp::Skills budget(small, {.max_total_bytes = 100});
    EXPECT_THROW(
        budget.add(
            {.path = "a", .skill_md = skill_md("a"), .files = {{.path = "x", .content = std::string(200, 'x')}}}),
        std::invalid_argument);
}

TEST_F(Skills, WithoutDirectoryReadTheMethodIsUnknown) {
    mcp::Server plain({.name = "plain", .version = "1"});
    mcp::Skills s(plain, {.directory_read = false});
    s.add({.path = "a", .skill_md = skill_md("a")});
    mcp::LocalConnection c(plain);
    auto reply = c.send(request(1, "server/discover", {{"_meta", meta()}})).back();
    EXPECT_EQ(reply.at("result").at("capabilities").at("extensions").at("io.modelcontextprotocol/skills"),
              boost::json::object());
    reply = c.send(request(2, "resources/directory/read", {{"uri", "skill://a"}, {"_meta", meta()}})).back();
    EXPECT_EQ(reply.at("error").at("code"), mcp::error_code::method_not_found);
}

TEST(SkillDirectories, ReadFromDiskNestedSkillsIncluded) {
    TempDir dir;
    dir.write("pdf/SKILL.md", skill_md("pdf"));
    dir.write("pdf/references/FORMS.md", "forms");
    dir.write("pdf/.git/config", "hidden: skipped");
    dir.write("pdf/inner/SKILL.md", skill_md("inner"));
    dir.write("pdf/inner/notes.txt", "n");
    dir.write("team/tools/git/SKILL.md", skill_md("git"));
    dir.write("no-skill/readme.md", "not a skill");

    mcp::Server server({.name = "d", .version = "1"});
    mcp::Skills skills(server);
    EXPECT_EQ(skills.add_directory(dir.path), 3u);
    mcp::LocalConnection c(server);
    auto entry = c.send(request(1, "skills/get", {{"uri", "skill://pdf/SKILL.md"}, {"_meta", meta()}})).back();
    std::vector<std::string> uris;
    for (const auto& r : entry.at("result").at("skill").at("resources").as_array())
        uris.emplace_back(r.at("uri").as_string());
    EXPECT_EQ(uris, (std::vector<std::string>{"skill://pdf/SKILL.md", "skill://pdf/inner/SKILL.md",
                                              "skill://pdf/inner/notes.txt", "skill://pdf/references/FORMS.md"}));
    auto inner = c.send(request(2, "skills/get", {{"uri", "skill://pdf/inner/SKILL.md"}, {"_meta", meta()}})).back();
    EXPECT_EQ(inner.at("result").at("skill").at("frontmatter").at("name"), "inner");
    auto nested_path =
        c.send(request(3, "skills/get", {{"uri", "skill://team/tools/git/SKILL.md"}, {"_meta", meta()}})).back();
    EXPECT_TRUE(nested_path.as_object().contains("result"));
}

TEST(SkillDirectories, HostileTreesAreRefusedNotFollowed) {
    {
        TempDir dir;
        dir.write("a/SKILL.md", skill_md("a"));
        fs::create_directory_symlink("/", dir.path / "a" / "root");
        EXPECT_THROW(mcp::Skills::read_directory(dir.path / "a", "a"), std::invalid_argument);
    }
    {
        TempDir dir;
        dir.write("a/SKILL.md", skill_md("a"));
        fs::create_symlink("/etc/passwd", dir.path / "a" / "passwd");
        EXPECT_THROW(mcp::Skills::read_directory(dir.path / "a", "a"), std::invalid_argument);
    }
    {
        TempDir dir;
        dir.write("a/SKILL.md", skill_md("a"));
        fs::path deep = dir.path / "a";
        for (int i = 0; i < 20; ++i) deep /= "d";
        fs::create_directories(deep);
        std::ofstream(deep / "f") << "x";
        EXPECT_THROW(mcp::Skills::read_directory(dir.path / "a", "a"), std::invalid_argument);
    }
    {
        TempDir dir;
        dir.write("a/SKILL.md", skill_md("a"));
        dir.write("a/big.bin", std::string(17 << 20, 'x'));
        EXPECT_THROW(mcp::Skills::read_directory(dir.path / "a", "a"), std::invalid_argument);
    }
    {
        TempDir dir;
        dir.write("a/SKILL.md", skill_md("a"));
        for (int i = 0; i < 513; ++i) dir.write(fs::path("a") / std::to_string(i), "x");
        EXPECT_THROW(mcp::Skills::read_directory(dir.path / "a", "a"), std::invalid_argument);
    }
    {
        TempDir dir;
        EXPECT_THROW(mcp::Skills::read_directory(dir.path, "a"), std::invalid_argument);  // no SKILL.md
        mcp::Server server({.name = "d", .version = "1"});
        mcp::Skills skills(server);
        EXPECT_THROW(skills.add_directory(dir.path / "missing"), std::invalid_argument);
        dir.write("bad/SKILL.md", "no frontmatter");
        EXPECT_THROW(skills.add_directory(dir.path), std::invalid_argument);
    }
}
