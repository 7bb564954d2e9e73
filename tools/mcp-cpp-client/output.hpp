#pragma once
// What mcp-cpp-client prints on stdout: the server's results as JSON (--json), or for people.
#include <mcp/protocol/content.hpp>

#include <boost/json/array.hpp>

#include <ostream>

namespace mcp_client_tool {

// The tools as listed (every page): {"tools": [...]}, or a line per tool: its name, a tab, the
// first line of its description, and its arguments.
void print_tools(const boost::json::array& tools, bool json, std::ostream& out);
// Text content as it is; other content as a line saying what it is; structuredContent as JSON
// when there is no text.
void print_tool_result(const mcp::CallToolResult& result, bool json, std::ostream& out);
void print_resource(const mcp::ReadResourceResult& result, bool json, std::ostream& out);
void print_prompt(const mcp::GetPromptResult& result, bool json, std::ostream& out);

}  // namespace mcp_client_tool
