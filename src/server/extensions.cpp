#include "server/extensions.hpp"

#include <mutex>
#include <stdexcept>

namespace mcp::detail {

namespace {

bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool alnum(char c) { return letter(c) || digit(c); }

// A label of the prefix: a letter first, then letters, digits and hyphens, no hyphen last.
bool valid_label(std::string_view label) {
    if (label.empty() || !letter(label.front()) || label.back() == '-') return false;
    for (char c : label) {
        if (!alnum(c) && c != '-') return false;
    }
    return true;
}

bool valid_prefix(std::string_view prefix) {
    while (true) {
        const auto dot = prefix.find('.');
        if (!valid_label(prefix.substr(0, dot))) return false;
        if (dot == std::string_view::npos) return true;
        prefix.remove_prefix(dot + 1);
    }
}

// The name: alphanumerics at both ends, with '-', '_' and '.' allowed between.
bool valid_name(std::string_view name) {
    if (name.empty() || !alnum(name.front()) || !alnum(name.back())) return false;
    for (char c : name) {
        if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
    }
    return true;
}

}  // namespace

bool valid_extension_id(std::string_view id) {
    const auto slash = id.find('/');
    if (slash == std::string_view::npos || id.size() > 256) return false;
    return valid_prefix(id.substr(0, slash)) && valid_name(id.substr(slash + 1));
}

void Extensions::declare(ExtensionSpec spec) {
    if (!valid_extension_id(spec.id)) {
        throw std::invalid_argument("extension id \"" + spec.id +
                                    "\" must be {vendor-prefix}/{name}, e.g. com.example/feature (SEP-2133)");
    }
    std::unique_lock lock(mutex_);
    if (declared_.contains(spec.id)) throw std::invalid_argument("extension " + spec.id + " is declared already");
    auto id = spec.id;
    declared_.emplace(std::move(id), std::move(spec));
}

bool Extensions::declared(std::string_view id) const {
    std::shared_lock lock(mutex_);
    return declared_.find(id) != declared_.end();
}

bool Extensions::methods_need_client(std::string_view id) const {
    std::shared_lock lock(mutex_);
    auto it = declared_.find(id);
    return it != declared_.end() && it->second.methods_need_client;
}

std::optional<boost::json::object> Extensions::capabilities() const {
    std::shared_lock lock(mutex_);
    if (declared_.empty()) return std::nullopt;
    boost::json::object out;
    for (const auto& [id, spec] : declared_) out[id] = spec.settings;
    return out;
}

}  // namespace mcp::detail
