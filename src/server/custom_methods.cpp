#include "server/custom_methods.hpp"

#include <mutex>
#include <stdexcept>

namespace mcp::detail {

void CustomMethods::add(std::unique_ptr<MethodEntry> entry) {
    std::unique_lock lock(mutex_);
    const auto& name = entry->def.spec.name;
    if (entries_.contains(name)) throw std::invalid_argument("method " + name + " is registered already");
    entries_.emplace(name, std::move(entry));
}

const MethodEntry* CustomMethods::find(std::string_view name) const {
    std::shared_lock lock(mutex_);
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : it->second.get();
}

std::vector<std::string> CustomMethods::required_scopes() const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_)
        out.insert(out.end(), entry->def.spec.required_scopes.begin(), entry->def.spec.required_scopes.end());
    return out;
}

}  // namespace mcp::detail
