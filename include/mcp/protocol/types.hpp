#pragma once
// MCP model types shared by tools, prompts and resources (schema.ts, 2025-11-25 and 2026-07-28).
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

enum class LogLevel { debug, info, notice, warning, error, critical, alert, emergency };
std::string_view to_string(LogLevel level);
std::optional<LogLevel> parse_log_level(std::string_view text);

enum class Role { user, assistant };
std::string_view to_string(Role role);

struct Icon {
    std::string src;                 // https: or data: URI
    std::string mime_type;           // optional
    std::vector<std::string> sizes;  // e.g. "48x48", "any"
    std::string theme;               // "light", "dark" or empty
};

// The server's identity (serverInfo) and, when read from a request, the client's (clientInfo).
struct Implementation {
    std::string name;
    std::string version;
    std::string title;
    std::string description;
    std::string website_url;
    std::vector<Icon> icons;
};

// What the client declared about itself: at initialize (2025) or in each request's _meta (2026).
struct ClientState {
    std::string protocol_version;
    boost::json::object capabilities;
    Implementation info;
};

// An argument a prompt takes.
struct PromptArgument {
    std::string name;
    std::string title;
    std::string description;
    bool required = false;
};

// Hints about a tool's behaviour, for clients; never security guarantees.
struct ToolAnnotations {
    std::optional<std::string> title;
    std::optional<bool> read_only_hint;
    std::optional<bool> destructive_hint;
    std::optional<bool> idempotent_hint;
    std::optional<bool> open_world_hint;
};

// Annotations on content blocks and resources.
struct Annotations {
    std::vector<Role> audience;
    std::optional<double> priority;            // 0..1
    std::optional<std::string> last_modified;  // ISO 8601

    bool empty() const { return audience.empty() && !priority && !last_modified; }
};

// Reads a model type from what a peer sent, the inverse of to_wire: a client reads results with
// it. Throws std::invalid_argument naming the member that is missing or malformed; members it does
// not know are ignored. Declared for each type it reads, here and in content.hpp and
// client_features.hpp.
template <class T>
T from_wire(const boost::json::value& wire);

boost::json::value to_wire(const Icon& icon);
boost::json::value to_wire(const Implementation& impl);
boost::json::value to_wire(const ToolAnnotations& annotations);
boost::json::value to_wire(const Annotations& annotations);
// Fills the optional icons/annotations/_meta members shared by several wire objects.
void put_icons(boost::json::object& out, const std::vector<Icon>& icons);
void put_meta(boost::json::object& out, const boost::json::object& meta);

template <>
Icon from_wire<Icon>(const boost::json::value& wire);
template <>
Implementation from_wire<Implementation>(const boost::json::value& wire);
template <>
ToolAnnotations from_wire<ToolAnnotations>(const boost::json::value& wire);
template <>
Annotations from_wire<Annotations>(const boost::json::value& wire);
// The icons, annotations and _meta members shared by several wire objects.
std::vector<Icon> icons_from_wire(const boost::json::object& wire);
Annotations annotations_from_wire(const boost::json::object& wire);
boost::json::object meta_from_wire(const boost::json::object& wire);
std::optional<Role> parse_role(std::string_view text);

}  // namespace mcp
