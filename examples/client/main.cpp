// A host's first steps with mcp::Client: start the MCP server a command names (over stdio), list
// its tools, and call `echo` when it has one.
//
//   example-client mcp-cpp-demo --stdio
//   example-client npx -y @modelcontextprotocol/server-everything
#include <mcp/client/client.hpp>
#include <mcp/client/stdio.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " COMMAND [ARGS...]   (an MCP server over stdio)\n";
        return 2;
    }
    mcp::StdioServerParams server{.command = argv[1], .args = std::vector<std::string>(argv + 2, argv + argc)};
    mcp::Client client(std::make_shared<mcp::StdioTransport>(std::move(server)));
    client.connect();
    std::cout << client.server_info().name << " speaks " << client.protocol_version() << '\n';

    bool has_echo = false;
    for (const mcp::Tool& tool : client.tools()) {  // pages are fetched as the loop goes
        std::cout << "tool: " << tool.name << '\n';
        has_echo = has_echo || tool.name == "echo";
    }
    if (has_echo) {
        const mcp::CallToolResult result = client.call_tool("echo", {{"text", "hello from C++"}});
        for (const auto& block : result.content) {
            if (const auto* text = std::get_if<mcp::TextContent>(&block)) std::cout << "echo: " << text->text << '\n';
        }
    }
    client.close();
    return 0;
} catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << e.what() << '\n';
    return 1;
}
