// The one place a configured server becomes a transport: mcp::ClientGroup and mcp-cpp-client both
// come through here.
#include <mcp/client/http.hpp>
#include <mcp/client/oauth.hpp>
#include <mcp/client/server_config.hpp>
#include <mcp/client/stdio.hpp>

#include <stdexcept>

namespace mcp {

namespace {

HttpServerParams http_params(const ServerConfig& config) {
    HttpServerParams params{.url = config.url, .headers = config.headers};
    if (config.oauth) {
        OAuthOptions oauth;
        if (config.oauth->client_credentials) oauth.grant = OAuthOptions::Grant::client_credentials;
        oauth.client_id = config.oauth->client_id;
        oauth.client_secret = config.oauth->client_secret;
        oauth.scopes = config.oauth->scopes;
        if (!config.oauth->token_file.empty()) oauth.store = std::make_shared<FileTokenStore>(config.oauth->token_file);
        params.oauth = std::move(oauth);
    }
    return params;
}

std::shared_ptr<ClientTransport> transport_for(const ServerConfig& config) {
    switch (config.transport) {
        case ServerTransportKind::stdio:
            return std::make_shared<StdioTransport>(StdioServerParams{.command = config.command,
                                                                      .args = config.args,
                                                                      .env = config.env,
                                                                      .cwd = config.cwd,
                                                                      .limits = config.limits});
        case ServerTransportKind::http:
            // Streamable HTTP, which also finds a 2024-11-05 HTTP+SSE server at the URL.
            return std::make_shared<HttpTransport>(http_params(config));
        case ServerTransportKind::sse: return std::make_shared<LegacySseTransport>(http_params(config));
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
