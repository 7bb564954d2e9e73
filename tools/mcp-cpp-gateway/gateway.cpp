#include "gateway.hpp"

#include <mcp/server/server.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace mcp_gateway {

namespace {

mcp::ClientOptions inner_client_options(const mcp::Server& server) {
    mcp::ClientOptions options;
    options.info = {.name = "mcp-cpp-gateway", .version = MCP_CPP_VERSION};
    // Every caller shares the inner client: a result read for one must never be served to another.
    options.cache_entries = 0;
    // One exporter for the process: the upstream calls' spans go with the server's own.
    options.tracer = server.tracer();
    return options;
}

}  // namespace

Gateway::Gateway(mcp::Server& server, const std::vector<mcp::ServerConfig>& servers, bool prefixed) {
    if (!prefixed && servers.size() > 1) {
        throw std::invalid_argument("--no-prefix serves one server; the configuration has " +
                                    std::to_string(servers.size()));
    }
    std::set<std::string> prefixes;
    for (const auto& config : servers) {
        std::string prefix = prefixed ? mcp::mount_prefix(config.name) : std::string();
        if (!prefixes.insert(prefix).second) {
            throw std::invalid_argument("servers \"" + config.name + "\" and another one would both be named \"" +
                                        prefix + "_...\"; rename one");
        }
        mounts_.emplace(config.name,
                        std::make_shared<mcp::Mount>(server, std::move(prefix),
                                                     [this, name = config.name] { return group_->client(name); }));
    }
    mcp::ClientGroupOptions options;
    // The inner server's elicitation and sampling reach the caller of the mounted tool.
    options.client_options = [this, &server](const mcp::ServerConfig& config) {
        auto client_options = inner_client_options(server);
        client_options.handlers = mounts_.at(config.name)->request_handlers();
        return client_options;
    };
    options.naming = mcp::GroupNaming::prefix_always;
    options.on_change = [this] { update(); };
    options.on_state = [this](const mcp::ServerState& state) {
        report(state);
        update();
    };
    group_ = std::make_unique<mcp::ClientGroup>(std::move(options));
    for (const auto& config : servers) group_->add(config);
}

Gateway::~Gateway() {
    close();
    mounts_.clear();
}

bool Gateway::wait_started(std::chrono::milliseconds timeout) const {
    const auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto states = group_->servers();
        const bool starting = std::any_of(states.begin(), states.end(), [](const mcp::ServerState& s) {
            return s.status == mcp::ServerStatus::connecting;
        });
        if (!starting || std::chrono::steady_clock::now() >= until) {
            return std::all_of(states.begin(), states.end(),
                               [](const mcp::ServerState& s) { return s.status == mcp::ServerStatus::connected; });
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::vector<mcp::ServerState> Gateway::servers() const { return group_->servers(); }

void Gateway::close() { group_->close(); }

void Gateway::report(const mcp::ServerState& state) {
    std::lock_guard lock(report_mutex_);
    int& reported = reported_failures_[state.name];
    switch (state.status) {
        case mcp::ServerStatus::connected:
            if (reported > 0) std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" is back\n", state.name.c_str());
            reported = 0;
            break;
        case mcp::ServerStatus::reconnecting:
            if (state.failures <= reported) break;  // the next attempt starting: told already
            reported = state.failures;
            std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" failed (%d in a row), restarting: %s\n",
                         state.name.c_str(), state.failures, state.error.c_str());
            break;
        case mcp::ServerStatus::failed:
            std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" given up after %d failures in a row: %s\n",
                         state.name.c_str(), state.failures, state.error.c_str());
            break;
        case mcp::ServerStatus::connecting:
        case mcp::ServerStatus::closed: break;
    }
}

void Gateway::update() {
    std::lock_guard lock(mutex_);
    std::map<std::string, mcp::MountCatalog> catalogs;
    for (auto& t : group_->tools()) catalogs[t.server].tools.push_back(std::move(t.tool));
    for (auto& p : group_->prompts()) catalogs[p.server].prompts.push_back(std::move(p.prompt));
    for (auto& r : group_->resources()) catalogs[r.server].resources.push_back(std::move(r.resource));
    for (auto& t : group_->resource_templates()) catalogs[t.server].templates.push_back(std::move(t.resource_template));
    for (const auto& state : group_->servers()) {
        auto mount = mounts_.find(state.name);
        if (mount == mounts_.end()) continue;
        switch (state.status) {
            case mcp::ServerStatus::connected: mount->second->sync(catalogs[state.name]); break;
            case mcp::ServerStatus::failed:
            case mcp::ServerStatus::closed: mount->second->clear(); break;
            case mcp::ServerStatus::connecting:
            case mcp::ServerStatus::reconnecting: break;
        }
    }
}

}  // namespace mcp_gateway
