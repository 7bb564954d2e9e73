#include "server_entry.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>

namespace mcp_client_tool {

namespace {

constexpr const char* kEntryName = "command line";

// "Name: value" as a headers entry.
boost::json::object headers_of(const std::vector<std::string>& headers) {
    boost::json::object out;
    for (const auto& h : headers) {
        const auto colon = h.find(':');
        if (colon == std::string::npos || colon == 0)
            throw UsageError("--header \"" + h + "\": expected \"Name: value\"");
        auto value = h.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        out[h.substr(0, colon)] = value;
    }
    return out;
}

mcp::ServerConfig from_config(const CommandLine& cl) {
    auto servers = mcp::read_server_config(cl.config, {.workspace_folder = std::filesystem::current_path().string()});
    std::string names;
    for (const auto& s : servers) names += (names.empty() ? "" : ", ") + s.name;
    if (cl.server.empty()) {
        if (servers.size() == 1) return servers.front();
        throw UsageError(cl.config + " has " + std::to_string(servers.size()) + " servers; name one with --server (" +
                         (names.empty() ? "none" : names) + ")");
    }
    for (auto& s : servers) {
        if (s.name == cl.server) return s;
    }
    throw UsageError(cl.config + " has no server \"" + cl.server + "\" (" + (names.empty() ? "none" : names) + ")");
}

}  // namespace

mcp::ServerConfig server_entry(const CommandLine& cl) {
    const int sources = int(!cl.url.empty()) + int(!cl.config.empty()) + int(!cl.server_command.empty());
    if (sources != 1)
        throw UsageError("name the server once: --url URL, --config FILE [--server NAME], or -- COMMAND ARGS...");
    if (!cl.server.empty() && cl.config.empty()) throw UsageError("--server names an entry of --config");

    mcp::ServerConfig entry;
    if (!cl.config.empty()) {
        entry = from_config(cl);
    } else if (!cl.url.empty()) {
        // Written as an entry, so that it is checked as a file's would be (${env:NAME} included).
        const boost::json::object config{{"mcpServers", {{kEntryName, {{"url", cl.url}}}}}};
        entry = mcp::parse_server_config(boost::json::serialize(config)).front();
    } else {
        // What the shell gave, as it gave it.
        entry.name = kEntryName;
        entry.command = cl.server_command.front();
        entry.args.assign(cl.server_command.begin() + 1, cl.server_command.end());
    }
    if (!cl.headers.empty()) {
        if (entry.transport == mcp::ServerTransportKind::stdio) throw UsageError("--header is for a server over HTTP");
        const boost::json::object config{
            {"mcpServers", {{entry.name, {{"url", entry.url}, {"headers", headers_of(cl.headers)}}}}}};
        auto checked = mcp::parse_server_config(boost::json::serialize(config));
        for (auto& h : checked.front().headers) entry.headers.push_back(std::move(h));
    }
    return entry;
}

}  // namespace mcp_client_tool
