// The one place a configured server becomes a transport: mcp::ClientGroup and mcp-cpp-client both
// come through here.
#include <mcp/client/server_config.hpp>
#include <mcp/client/stdio.hpp>

#include <stdexcept>

namespace mcp {

std::shared_ptr<ClientTransport> make_transport(const ServerConfig& config) {
    switch (config.transport) {
        case ServerTransportKind::stdio:
            return std::make_shared<StdioTransport>(StdioServerParams{
                .command = config.command, .args = config.args, .env = config.env, .cwd = config.cwd});
        case ServerTransportKind::http:
        case ServerTransportKind::sse:
            // The Streamable HTTP and HTTP+SSE transports come next (docs/adr/0023-client.md).
            throw std::invalid_argument("server \"" + config.name + "\": the " +
                                        std::string(to_string(config.transport)) + " transport (" + config.url +
                                        ") is not in this build of mcp-cpp yet");
    }
    throw std::invalid_argument("server \"" + config.name + "\": unknown transport");
}

}  // namespace mcp
