#pragma once
// How a mount names what it shows (docs/adr/0029-gateway.md, decisions 3 and 4): pure functions
// of the prefix and the inner server's name or URI.
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

// The prefix with every character a tool name may not have ([A-Za-z0-9_.-]) made '_'.
std::string mount_prefix(std::string_view name);

// An empty prefix leaves names and URIs as they are (one server behind a gateway).

// "<prefix>_<name>"; nothing when that is over the 64 characters a name may have.
std::optional<std::string> mounted_name(std::string_view prefix, std::string_view name);

// "scheme://rest" -> "scheme://<prefix>/rest", "scheme:rest" -> "scheme:<prefix>/rest"; nothing
// for text without a scheme (a template whose scheme is a variable, a relative reference).
std::optional<std::string> mounted_uri(std::string_view prefix, std::string_view uri);
// The inverse: nothing for a URI that mounted_uri did not make with this prefix.
std::optional<std::string> unmounted_uri(std::string_view prefix, std::string_view uri);

}  // namespace mcp::detail
