// The host side of Skills (mcp::SkillsClient) against mcp-cpp's own server with the extension, in
// process, in both revisions: the index listed without reading a file, files read and verified,
// and files tampered with on their way (wrong digest, wrong size, a frontmatter that is not the
// entry's, no frontmatter at all, a blob that is no base64) refused without their content.
#include "ext/skills/skill_record.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/ext/skills.hpp>
#include <mcp/ext/skills_client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>

namespace {

constexpr const char* kPdfSkillMd = R"(---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: 2
---

Skill body.
)";

const std::string kPng("\x89PNG\r\n\x1a\n\0\0\0\0", 12);

using Check = mcp::SkillVerificationError::Check;

class SkillsClientTest : public ::testing::TestWithParam<std::string> {
protected:
    SkillsClientTest() : server({.name = "skills", .version = "1"}, {.page_size = 1}) {
        mcp::Skills skills(server);
        skills.add({.path = "pdf-processing",
                    .skill_md = kPdfSkillMd,
                    .files = {{.path = "references/FORMS.md", .content = "Supporting content.\n"},
                              {.path = "assets/dot.png", .content = kPng}}});
        skills.add(
            {.path = "acme/refunds", .skill_md = "---\nname: refunds\ndescription: Refund requests\n---\n# Refunds\n"});
        // Every read is counted; `tamper` may change what goes back, as a hostile server would.
        server.intercept([this](const mcp::Invocation& call, const mcp::Proceed& next) {
            auto result = next();
            if (call.method == "resources/read") ++reads;
            std::lock_guard lock(mutex);
            if (tamper) tamper(call.method, result);
            return result;
        });
    }

    mcp::SkillsClient& connect() {
        mcp::ClientOptions options;
        options.protocol_version = GetParam();
        mcp::SkillsClient::declare(options);
        client = std::make_unique<mcp::Client>(mcp::in_process(server), options);
        client->connect();
        skills = std::make_unique<mcp::SkillsClient>(*client);
        return *skills;
    }

    void set_tamper(std::function<void(std::string_view, boost::json::value&)> f) {
        std::lock_guard lock(mutex);
        tamper = std::move(f);
    }

    // The pdf skill's entry, as listed.
    mcp::SkillEntry pdf() {
        for (auto& entry : skills->list({.fresh = true})) {
            if (entry.name() == "pdf-processing") return entry;
        }
        throw std::runtime_error("no pdf-processing skill listed");
    }

    static void for_the_read_of(boost::json::value& result, std::string_view uri,
                                const std::function<void(boost::json::object&)>& change) {
        for (auto& c : result.as_object()["contents"].as_array()) {
            if (const auto* u = c.as_object()["uri"].if_string(); u != nullptr && *u == uri) change(c.as_object());
        }
    }

    Check refusal(const mcp::SkillEntry& skill, std::string_view uri) {
        try {
            const auto file = skills->read(skill, uri);
            ADD_FAILURE() << "handed over: " << file.content;
        } catch (const mcp::SkillVerificationError& e) {
            EXPECT_EQ(e.uri(), uri);
            return e.check();
        }
        return Check::unlisted;
    }

    mcp::Server server;
    std::atomic<int> reads{0};
    std::mutex mutex;
    std::function<void(std::string_view, boost::json::value&)> tamper;
    std::unique_ptr<mcp::Client> client;
    std::unique_ptr<mcp::SkillsClient> skills;
};

TEST_P(SkillsClientTest, ListingReadsTheIndexAndNoFile) {
    auto& s = connect();
    EXPECT_TRUE(s.offered());
    const auto all = s.list();  // one skill a page
    ASSERT_EQ(all.size(), 2u);
    const auto entry = pdf();
    EXPECT_EQ(entry.uri, "skill://pdf-processing/SKILL.md");
    EXPECT_EQ(entry.description(), "Extract, fill, and assemble PDF documents");
    EXPECT_EQ(entry.frontmatter.at("metadata").as_object().at("version"), 2);
    ASSERT_EQ(entry.resources.size(), 3u);
    EXPECT_EQ(entry.resources[0].uri, entry.uri);
    EXPECT_EQ(entry.resources[0].size, std::string(kPdfSkillMd).size());
    EXPECT_EQ(entry.resources[0].digest, mcp::detail::sha256_digest(kPdfSkillMd));
    const auto got = s.get("skill://acme/refunds/SKILL.md");
    EXPECT_EQ(got.name(), "refunds");
    EXPECT_THROW(s.get("skill://nobody/SKILL.md"), mcp::Error);
    EXPECT_EQ(reads.load(), 0);
}

TEST_P(SkillsClientTest, FilesAreReadWhenAskedAndHandedOverVerified) {
    auto& s = connect();
    const auto entry = pdf();
    const auto md = s.load(entry);
    EXPECT_EQ(md.content, kPdfSkillMd);
    EXPECT_EQ(md.mime_type, "text/markdown");
    EXPECT_EQ(reads.load(), 1);
    EXPECT_EQ(s.read(entry, "skill://pdf-processing/references/FORMS.md").content, "Supporting content.\n");
    const auto png = s.read(entry, "skill://pdf-processing/assets/dot.png");  // a blob, decoded
    EXPECT_EQ(png.content, kPng);
    EXPECT_EQ(png.mime_type, "image/png");
    EXPECT_EQ(reads.load(), 3);
}

TEST_P(SkillsClientTest, AFileTheEntryDoesNotListIsNeverRead) {
    connect();
    const auto entry = pdf();
    EXPECT_EQ(refusal(entry, "skill://acme/refunds/SKILL.md"), Check::unlisted);
    auto odd = entry;
    odd.resources[1].digest = "md5:0cc175b9c0f1b6a831c399e269772661";
    EXPECT_EQ(refusal(odd, odd.resources[1].uri), Check::digest);
    EXPECT_EQ(reads.load(), 0);
}

TEST_P(SkillsClientTest, AWrongDigestIsRefused) {
    auto& s = connect();
    const auto entry = pdf();
    set_tamper([&](std::string_view method, boost::json::value& result) {
        if (method != "resources/read") return;
        for_the_read_of(result, entry.uri, [](boost::json::object& c) {
            std::string text(c["text"].as_string());
            text.replace(text.find("Skill body."), 11, "Evil body!!");  // the same length
            c["text"] = text;
        });
    });
    EXPECT_EQ(refusal(entry, entry.uri), Check::digest);
    EXPECT_NO_THROW(s.read(entry, "skill://pdf-processing/references/FORMS.md"));  // untouched
}

TEST_P(SkillsClientTest, AWrongSizeIsRefused) {
    connect();
    const auto entry = pdf();
    set_tamper([&](std::string_view method, boost::json::value& result) {
        if (method != "resources/read") return;
        for_the_read_of(result, "skill://pdf-processing/references/FORMS.md", [](boost::json::object& c) {
            c["text"] = std::string(c["text"].as_string()) + "extra bytes the entry did not account for\n";
        });
    });
    EXPECT_EQ(refusal(entry, "skill://pdf-processing/references/FORMS.md"), Check::size);
}

TEST_P(SkillsClientTest, AFrontmatterThatIsNotTheEntrysIsRefused) {
    connect();
    // As the conformance scenario does: the entry's digest and size are the tampered file's, so
    // only the frontmatter tells.
    const std::string evil =
        std::string(kPdfSkillMd).replace(std::string(kPdfSkillMd).find("Extract, fill"), 41, "Exfiltrate credentials");
    const std::string broken = "---\nname: [unclosed\n---\nbody\n";
    std::string served = evil;
    set_tamper([&](std::string_view method, boost::json::value& result) {
        const std::string uri = "skill://pdf-processing/SKILL.md";
        if (method == "resources/read") {
            for_the_read_of(result, uri, [&](boost::json::object& c) { c["text"] = served; });
            return;
        }
        if (method != "skills/list") return;
        for (auto& skill : result.as_object()["skills"].as_array()) {
            for (auto& r : skill.as_object()["resources"].as_array()) {
                if (r.as_object()["uri"].as_string() != uri) continue;
                r.as_object()["digest"] = mcp::detail::sha256_digest(served);
                r.as_object()["size"] = served.size();
            }
        }
    });
    auto entry = pdf();
    try {
        skills->load(entry);
        FAIL() << "a skill whose frontmatter is not its entry's was loaded";
    } catch (const mcp::SkillVerificationError& e) {
        EXPECT_EQ(e.check(), Check::frontmatter);
        EXPECT_NE(std::string(e.what()).find("description"), std::string::npos) << e.what();
    }
    served = broken;
    entry = pdf();
    EXPECT_EQ(refusal(entry, entry.uri), Check::frontmatter);
}

TEST_P(SkillsClientTest, ABlobThatIsNoBase64OrAReadForAnotherUriIsRefused) {
    connect();
    const auto entry = pdf();
    set_tamper([&](std::string_view method, boost::json::value& result) {
        if (method != "resources/read") return;
        for_the_read_of(result, "skill://pdf-processing/assets/dot.png",
                        [](boost::json::object& c) { c["blob"] = "not base64!"; });
        for_the_read_of(result, "skill://pdf-processing/references/FORMS.md",
                        [](boost::json::object& c) { c["uri"] = "skill://pdf-processing/elsewhere.md"; });
    });
    EXPECT_EQ(refusal(entry, "skill://pdf-processing/assets/dot.png"), Check::malformed);
    EXPECT_EQ(refusal(entry, "skill://pdf-processing/references/FORMS.md"), Check::malformed);
}

INSTANTIATE_TEST_SUITE_P(Revisions, SkillsClientTest, ::testing::Values("2025-11-25", "2026-07-28"),
                         [](const auto& param) { return param.param == "2025-11-25" ? "v2025" : "v2026"; });

}  // namespace
