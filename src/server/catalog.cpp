#include "server/catalog.hpp"

namespace mcp::detail {

void Completers::set(std::string owner, std::string argument, Completer completer) {
    std::lock_guard lock(mutex_);
    completers_[{std::move(owner), std::move(argument)}] = std::move(completer);
}

Completer Completers::find(std::string_view owner, std::string_view argument) const {
    std::lock_guard lock(mutex_);
    auto it = completers_.find(std::pair<std::string, std::string>(owner, argument));
    return it == completers_.end() ? Completer() : it->second;
}

void Templates::add(std::shared_ptr<const TemplateEntry> entry) {
    std::unique_lock lock(mutex_);
    by_key_.add(entry->def.uri_template, entry, "resource template");
    order_.push_back(std::move(entry));
}

bool Templates::remove(std::string_view uri_template) {
    std::unique_lock lock(mutex_);
    if (!by_key_.remove(uri_template)) return false;
    std::erase_if(order_, [&](const auto& e) { return e->def.uri_template == uri_template; });
    return true;
}

std::vector<std::shared_ptr<const TemplateEntry>> Templates::in_order() const {
    std::shared_lock lock(mutex_);
    return order_;
}

}  // namespace mcp::detail
