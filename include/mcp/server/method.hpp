#pragma once
// An application's own JSON-RPC methods, and the extensions (SEP-2133) a server declares.
//
//   server.method("acme/reindex", [](const Reindex& in, mcp::Context& ctx) { return run(in); });
//   auto skills = server.extension("io.modelcontextprotocol/skills", {{"directoryRead", true}});
//   skills.method("skills/list", [](const ListSkills& in) -> boost::json::object { ... });
//
// Accepted handler shapes (Context& may be added last in each), typed as tools are:
//   R()   R(const In&)   R(const boost::json::object& params)
// In is a described struct: its generated JSON Schema validates the params (a mismatch is -32602
// naming the path), and they are bound to it. params._meta, the 2026-07-28 envelope, is neither
// validated nor bound. R is the result object: void (an empty result), boost::json::object, or a
// described struct or string map.
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

// The protocol revisions a method is served in.
enum class MethodEras : std::uint8_t { both, sessions, stateless };

// The caching hints (ttlMs, cacheScope) a 2026-07-28 result carries: those of the list methods,
// those of resources/read (CacheOptions), or none.
enum class MethodCache : std::uint8_t { none, list, read };

struct MethodSpec {
    // An application's own method (Server::method): "vendor/name" (a '/' with text on both sides),
    // printable ASCII without spaces, at most 128 characters, outside the protocol's names and
    // areas ("tools/...", "rpc.", …).
    // A method of an extension (Extension::method) may take any name the server does not serve yet.
    std::string name;
    // A hand-written params schema, enforced instead of the generated one.
    std::optional<boost::json::object> params_schema;
    MethodEras eras = MethodEras::both;
    MethodCache cache = MethodCache::none;
    // The param the Mcp-Name header mirrors on 2026-07-28 HTTP requests ("taskId"); none when empty.
    std::string name_param;
    // The handler never blocks, so it may run on the transport's thread (docs/adr/0012).
    bool runs_inline = false;
    // OAuth scopes a principal needs to call it, checked before the handler runs.
    std::vector<std::string> required_scopes;
};

struct ExtensionSpec {
    // "{vendor-prefix}/{extension-name}", e.g. "io.modelcontextprotocol/skills", "com.example/search":
    // the prefix is dot-separated labels (a letter first, letters, digits and hyphens, no hyphen
    // last), the name starts and ends with a letter or digit and holds letters, digits, '-', '_', '.'.
    std::string id;
    // Advertised verbatim under capabilities.extensions[id]; an empty object declares support with
    // no optional features.
    boost::json::object settings;
    // Its methods serve only clients that declared the extension in their own capabilities (per
    // request on 2026-07-28, in initialize before). Others get -32021 with the capability they lack
    // on 2026-07-28, and -32601 on 2025-11-25, where the extension was not negotiated.
    bool methods_need_client = false;
};

}  // namespace mcp
