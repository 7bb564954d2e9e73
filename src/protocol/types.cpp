#include <mcp/protocol/types.hpp>

#include "protocol/wire_reader.hpp"

#include <boost/json/array.hpp>

#include <array>
#include <stdexcept>

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

std::optional<Role> parse_role(std::string_view text) {
    if (text == "user") return Role::user;
    if (text == "assistant") return Role::assistant;
    return std::nullopt;
}

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

template <>
Icon from_wire<Icon>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "an icon");
    Icon icon;
    icon.src = detail::required_string(o, "src");
    icon.mime_type = detail::optional_string(o, "mimeType");
    if (const auto* sizes = detail::optional_array(o, "sizes")) {
        for (const auto& size : *sizes) {
            if (!size.is_string()) throw std::invalid_argument("\"sizes\" must hold strings");
            icon.sizes.emplace_back(size.get_string());
        }
    }
    icon.theme = detail::optional_string(o, "theme");
    return icon;
}

template <>
Implementation from_wire<Implementation>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "an implementation");
    Implementation impl;
    impl.name = detail::required_string(o, "name");
    impl.version = detail::optional_string(o, "version");
    impl.title = detail::optional_string(o, "title");
    impl.description = detail::optional_string(o, "description");
    impl.website_url = detail::optional_string(o, "websiteUrl");
    impl.icons = icons_from_wire(o);
    return impl;
}

template <>
ToolAnnotations from_wire<ToolAnnotations>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "\"annotations\"");
    const auto flag = [&](std::string_view key) -> std::optional<bool> {
        if (const auto* v = o.if_contains(key); v != nullptr && !v->is_null()) return detail::optional_bool(o, key);
        return std::nullopt;
    };
    ToolAnnotations a;
    if (auto title = detail::optional_string(o, "title"); !title.empty()) a.title = std::move(title);
    a.read_only_hint = flag("readOnlyHint");
    a.destructive_hint = flag("destructiveHint");
    a.idempotent_hint = flag("idempotentHint");
    a.open_world_hint = flag("openWorldHint");
    return a;
}

template <>
Annotations from_wire<Annotations>(const boost::json::value& wire) {
    const auto& o = detail::object_of(wire, "\"annotations\"");
    Annotations a;
    if (const auto* audience = detail::optional_array(o, "audience")) {
        for (const auto& role : *audience) {
            const auto parsed = role.is_string() ? parse_role(role.get_string()) : std::nullopt;
            if (!parsed) throw std::invalid_argument("\"audience\" must hold \"user\" or \"assistant\"");
            a.audience.push_back(*parsed);
        }
    }
    a.priority = detail::optional_number(o, "priority");
    if (auto modified = detail::optional_string(o, "lastModified"); !modified.empty())
        a.last_modified = std::move(modified);
    return a;
}

std::vector<Icon> icons_from_wire(const boost::json::object& wire) {
    std::vector<Icon> icons;
    if (const auto* list = detail::optional_array(wire, "icons")) {
        for (const auto& icon : *list) icons.push_back(from_wire<Icon>(icon));
    }
    return icons;
}

Annotations annotations_from_wire(const boost::json::object& wire) {
    const auto* a = wire.if_contains("annotations");
    return a != nullptr && !a->is_null() ? from_wire<Annotations>(*a) : Annotations{};
}

boost::json::object meta_from_wire(const boost::json::object& wire) { return detail::optional_object(wire, "_meta"); }

}  // namespace mcp
