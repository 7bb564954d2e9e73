#pragma once
#include <mcp/mcp.hpp>

namespace conformance {

// Elicitation, sampling and roots fixtures, both eras (client_requests.cpp).
void add_client_request_fixtures(mcp::Server& server);

// The Skills extension's fixtures: two skills written in code (skills.cpp).
void add_skill_fixtures(mcp::Server& server);
void add_task_fixtures(mcp::Server& server);

}  // namespace conformance
