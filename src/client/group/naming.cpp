#include "client/group/naming.hpp"

#include "util/log.hpp"

#include <map>
#include <set>

namespace mcp::detail {

std::string prefixed_name(std::string_view server, std::string_view name) {
    std::string out;
    out.reserve(server.size() + 1 + name.size());
    for (char c : server) {
        const bool kept =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        out += kept ? c : '_';
    }
    out += '_';
    out += name;
    return out;
}

std::vector<std::string> assign_names(const std::vector<ListedName>& entries, ListKind kind, GroupNaming naming,
                                      const std::function<std::string(const NameRequest&)>& hook) {
    // Which servers list each name.
    std::map<std::string_view, std::set<std::string_view>> servers_of;
    for (const auto& e : entries) servers_of[e.name].insert(e.server);

    std::vector<std::string> out;
    out.reserve(entries.size());
    std::map<std::string, int> uses;
    for (const auto& e : entries) {
        const NameRequest request{
            .server = e.server, .name = e.name, .kind = kind, .collides = servers_of[e.name].size() > 1};
        std::string name;
        if (hook)
            name = hook(request);
        else if (naming == GroupNaming::prefix_always || request.collides)
            name = prefixed_name(e.server, e.name);
        else
            name = std::string(e.name);
        ++uses[name];
        out.push_back(std::move(name));
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i].empty() || uses[out[i]] == 1) continue;
        log().warn("client group: {} \"{}\" of server \"{}\" is left out: its name {} is another's too",
                   kind == ListKind::prompts ? "prompt" : "tool", printable(entries[i].name),
                   printable(entries[i].server), printable(out[i]));
        out[i].clear();
    }
    return out;
}

}  // namespace mcp::detail
