// The one place a configured server becomes a transport: mcp::ClientGroup and mcp-cpp-client both
// come through here.
#include <mcp/client/http.hpp>
#include <mcp/client/server_config.hpp>
#include <mcp/client/stdio.hpp>

#include <stdexcept>

namespace mcp {

namespace {

std::shared_ptr<ClientTransport> transport_for(const ServerConfig& config) {
    switch (config.transport) {
        case ServerTransportKind::stdio:
            return std::make_shared<StdioTransport>(StdioServerParams{
                .command = config.command, .args = config.args, .env = config.env, .cwd = config.cwd});
        case ServerTransportKind::http:
            // Streamable HTTP, which also finds a 2024-11-05 HTTP+SSE server at the URL.
            return std::make_shared<HttpTransport>(HttpServerParams{.url = config.url, .headers = config.headers});
        case ServerTransportKind::sse:
            return std::make_shared<LegacySseTransport>(HttpServerParams{.url = config.url, .headers = config.headers});
    }
    throw std::invalid_argument("unknown transport");
}

}  // namespace

std::shared_ptr<ClientTransport> make_transport(const ServerConfig& config) {
    try {
        return transport_for(config);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("server \"" + config.name + "\": " + e.what());
    }
}

}  // namespace mcp
