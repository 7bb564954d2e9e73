// The Skills extension (SEP-2640) for the sep-2640-skills-* scenarios: two skills written in code,
// one at the top of the namespace with supporting files in subdirectories (the directory scenario
// descends into one), one under an organizational prefix, and a binary file served as a blob.
#include "fixtures.hpp"

#include <memory>

namespace conformance {

namespace {

constexpr const char* kGuideSkillMd = R"(---
name: conformance-guide
description: "Explains how the mcp-cpp conformance fixtures are laid out, and which tool serves which scenario"
license: MIT
compatibility: Any MCP client that reads skill:// resources
metadata:
  author: mcp-cpp
  version: 2.1.0
  revision: 3
  reviewed: true
allowed-tools: Read
---

# Conformance guide

Read `references/SCENARIOS.md` for the list of scenarios, and pick a template from
`templates/` when writing a new fixture. `scripts/check.py` runs one scenario.
)";

constexpr const char* kRefundsSkillMd = R"(---
name: refunds
description: >-
  Process customer refund requests
  per company policy
---

# Refunds

Use `examples/email.md` as the reply.
)";

}  // namespace

void add_skill_fixtures(mcp::Server& server) {
    mcp::Skills skills(server);
    skills.add({.path = "conformance-guide",
                .skill_md = kGuideSkillMd,
                .files = {
                    {.path = "references/SCENARIOS.md", .content = "# Scenarios\n\n- sep-2640-skills-enumeration\n"},
                    {.path = "scripts/check.py", .content = "print('run one scenario')\n"},
                    {.path = "templates/fixture.md", .content = "# Fixture template\n"},
                    {.path = "templates/regional/eu.md", .content = "# EU template\n"},
                    {.path = "assets/dot.png", .content = std::string("\x89PNG\r\n\x1a\n\0\0\0\0", 12)},
                }});
    skills.add({.path = "acme/billing/refunds",
                .skill_md = kRefundsSkillMd,
                .files = {{.path = "examples/email.md", .content = "Dear customer,\n\nYour refund is on its way.\n"}}});
}

}  // namespace conformance
