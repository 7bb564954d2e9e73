#pragma once
// The extensions this server declares (SEP-2133), advertised as capabilities.extensions.
#include <mcp/server/method.hpp>

#include <boost/json/object.hpp>

#include <functional>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

namespace mcp::detail {

// The identifier rules of SEP-2133 (the _meta key rules with a mandatory prefix).
bool valid_extension_id(std::string_view id);

class Extensions {
public:
    // Throws std::invalid_argument for a malformed id or one declared already.
    void declare(ExtensionSpec spec);
    bool declared(std::string_view id) const;
    // Whether the extension's methods serve only clients that declared it; false for an unknown id.
    bool methods_need_client(std::string_view id) const;
    // capabilities.extensions, or nothing when no extension is declared.
    std::optional<boost::json::object> capabilities() const;

private:
    mutable std::shared_mutex mutex_;
    std::map<std::string, ExtensionSpec, std::less<>> declared_;
};

}  // namespace mcp::detail
