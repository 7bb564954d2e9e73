#pragma once
// The methods an application or an extension registered: each with its own entry of per-method
// facts, as the protocol's methods have theirs in protocol/methods.cpp, and its binding. Entries
// are never removed, so the pointers a call holds stay valid.
#include <mcp/json/schema_validator.hpp>
#include <mcp/server/detail/method_adapter.hpp>

#include "protocol/methods.hpp"
#include "server/method_binding.hpp"

#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct MethodEntry {
    MethodDefinition def;
    std::string extension;  // the extension that registered it; empty for the application's own
    json::SchemaValidator validator;
    MethodInfo info;  // its name views def.spec.name
    Method binding;   // its info points to `info`
};

class CustomMethods {
public:
    // Throws std::invalid_argument when the name is registered already.
    void add(std::unique_ptr<MethodEntry> entry);
    // nullptr for a name nobody registered.
    const MethodEntry* find(std::string_view name) const;
    // Every scope a registered method requires.
    std::vector<std::string> required_scopes() const;

private:
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::unique_ptr<MethodEntry>, std::less<>> entries_;
};

}  // namespace mcp::detail
