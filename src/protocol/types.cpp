#include <mcp/protocol/types.hpp>

#include <boost/json/array.hpp>

#include <array>

namespace mcp {

namespace {
constexpr std::array<std::string_view, 8> kLevels{"debug", "info",     "notice", "warning",
                                                  "error", "critical", "alert",  "emergency"};
}

std::string_view to_string(LogLevel level) { return kLevels[static_cast<std::size_t>(level)]; }

std::optional<LogLevel> parse_log_level(std::string_view text) {
    for (std::size_t i = 0; i < kLevels.size(); ++i) {
        if (kLevels[i] == text) return static_cast<LogLevel>(i);
    }
    return std::nullopt;
}

std::string_view to_string(Role role) { return role == Role::user ? "user" : "assistant"; }

boost::json::value to_wire(const Icon& icon) {
    boost::json::object o;
    o["src"] = icon.src;
    if (!icon.mime_type.empty()) o["mimeType"] = icon.mime_type;
    if (!icon.sizes.empty()) {
        boost::json::array sizes;
        for (const auto& s : icon.sizes) sizes.emplace_back(s);
        o["sizes"] = std::move(sizes);
    }
    if (!icon.theme.empty()) o["theme"] = icon.theme;
    return o;
}

boost::json::value to_wire(const Implementation& impl) {
    boost::json::object o;
    o["name"] = impl.name;
    o["version"] = impl.version;
    if (!impl.title.empty()) o["title"] = impl.title;
    if (!impl.description.empty()) o["description"] = impl.description;
    if (!impl.website_url.empty()) o["websiteUrl"] = impl.website_url;
    put_icons(o, impl.icons);
    return o;
}

boost::json::value to_wire(const ToolAnnotations& a) {
    boost::json::object o;
    if (a.title) o["title"] = *a.title;
    if (a.read_only_hint) o["readOnlyHint"] = *a.read_only_hint;
    if (a.destructive_hint) o["destructiveHint"] = *a.destructive_hint;
    if (a.idempotent_hint) o["idempotentHint"] = *a.idempotent_hint;
    if (a.open_world_hint) o["openWorldHint"] = *a.open_world_hint;
    return o;
}

boost::json::value to_wire(const Annotations& a) {
    boost::json::object o;
    if (!a.audience.empty()) {
        boost::json::array roles;
        for (Role r : a.audience) roles.emplace_back(to_string(r));
        o["audience"] = std::move(roles);
    }
    if (a.priority) o["priority"] = *a.priority;
    if (a.last_modified) o["lastModified"] = *a.last_modified;
    return o;
}

void put_icons(boost::json::object& out, const std::vector<Icon>& icons) {
    if (icons.empty()) return;
    boost::json::array arr;
    for (const auto& icon : icons) arr.push_back(to_wire(icon));
    out["icons"] = std::move(arr);
}

void put_meta(boost::json::object& out, const boost::json::object& meta) {
    if (!meta.empty()) out["_meta"] = meta;
}

}  // namespace mcp
