// mcp::ClientGroup: the servers' slots (server_slot.cpp), their lists under the group's names
// (naming.cpp), and calls routed to the server that owns a name.
#include <mcp/client/group.hpp>

#include "client/group/naming.hpp"
#include "client/group/server_slot.hpp"
#include "util/log.hpp"

#include <mcp/protocol/uri_template.hpp>

#include <condition_variable>
#include <mutex>
#include <stdexcept>

namespace mcp {

namespace {

using detail::ServerCatalog;
using detail::ServerSlot;

std::string unavailable_message(const std::string& server, ServerStatus status, const std::string& error) {
    std::string out = "server \"" + server + "\" is " + std::string(to_string(status));
    if (!error.empty()) out += ": " + error;
    return out;
}

// One listed entry of a kind, with the server that owns it.
template <class T>
struct Owned {
    std::string server;
    const T* item;
    std::shared_ptr<const ServerCatalog> keep;  // what item points into
};

}  // namespace

std::string_view to_string(ServerStatus status) {
    switch (status) {
        case ServerStatus::connecting: return "connecting";
        case ServerStatus::connected: return "connected";
        case ServerStatus::reconnecting: return "reconnecting";
        case ServerStatus::failed: return "failed";
        case ServerStatus::closed: return "closed";
    }
    return "unknown";
}

ServerUnavailable::ServerUnavailable(const std::string& server, ServerStatus status, const std::string& error)
    : ClientFailure(unavailable_message(server, status, error)), server_(server), status_(status) {}

struct ClientGroup::Impl {
    explicit Impl(ClientGroupOptions o) : options(std::move(o)) {}

    ClientGroupOptions options;
    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::vector<std::shared_ptr<ServerSlot>> slots;  // in the order added
    bool closed = false;

    std::vector<std::shared_ptr<ServerSlot>> all() const {
        std::lock_guard lock(mutex);
        return slots;
    }

    std::shared_ptr<ServerSlot> find(std::string_view name) const {
        std::lock_guard lock(mutex);
        for (const auto& slot : slots) {
            if (slot->name() == name) return slot;
        }
        return nullptr;
    }

    void on_slot(ServerSlot::Change change, const ServerState& state) {
        {
            std::lock_guard lock(mutex);  // so that a waiter cannot miss the change
        }
        changed.notify_all();
        // The application's callbacks run on the server's thread, which must go on whatever they throw.
        try {
            if (change == ServerSlot::Change::state && options.on_state) options.on_state(state);
            if (change == ServerSlot::Change::lists && options.on_change) options.on_change();
        } catch (const std::exception& e) {
            detail::log().warn("client group: a callback for server \"{}\" threw: {}", detail::printable(state.name),
                               detail::printable(e.what()));
        } catch (...) {
            detail::log().warn("client group: a callback for server \"{}\" threw", detail::printable(state.name));
        }
    }

    // Every connected server's entries of one list, in the order the servers were added.
    template <class T>
    std::vector<Owned<T>> listed(const std::vector<T> ServerCatalog::*list) const {
        std::vector<Owned<T>> out;
        for (const auto& slot : all()) {
            auto catalog = slot->catalog();
            for (const auto& item : (*catalog).*list) out.push_back({slot->name(), &item, catalog});
        }
        return out;
    }

    // The group's name for each entry of a named list (tools, prompts); empty: left out.
    template <class T>
    std::vector<std::string> names(const std::vector<Owned<T>>& entries, ListKind kind) const {
        std::vector<detail::ListedName> listed;
        listed.reserve(entries.size());
        for (const auto& e : entries) listed.push_back({e.server, e.item->name});
        return detail::assign_names(listed, kind, options.naming, options.name);
    }

    // A named list as the group shows it: {name, server, entry}, the entries left out skipped.
    template <class Shown, class T>
    std::vector<Shown> named(const std::vector<T> ServerCatalog::*list, ListKind kind) const {
        const auto entries = listed(list);
        const auto exposed = names(entries, kind);
        std::vector<Shown> out;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (!exposed[i].empty()) out.push_back({exposed[i], entries[i].server, *entries[i].item});
        }
        return out;
    }

    // The server and its own name for a group name of a list.
    template <class T>
    std::pair<std::shared_ptr<Client>, std::string> route(const std::vector<T> ServerCatalog::*list, ListKind kind,
                                                          std::string_view name, const char* what) const {
        const auto entries = listed(list);
        const auto exposed = names(entries, kind);
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (exposed[i] == name) return {connected(entries[i].server), entries[i].item->name};
        }
        throw std::invalid_argument("no server of the group lists a " + std::string(what) + " named \"" +
                                    std::string(name) + "\"");
    }

    std::shared_ptr<Client> connected(std::string_view server) const {
        auto slot = find(server);
        if (!slot) throw std::invalid_argument("the group has no server named \"" + std::string(server) + "\"");
        if (auto client = slot->client()) return client;
        const auto state = slot->state();
        throw ServerUnavailable(state.name, state.status, state.error);
    }
};

ClientGroup::ClientGroup(ClientGroupOptions options) : impl_(std::make_shared<Impl>(std::move(options))) {}

ClientGroup::~ClientGroup() {
    try {
        close();
    } catch (const std::exception&) {
        // close() refuses only from a server's own callback; the slots then end as the group goes.
    }
}

void ClientGroup::add(ServerConfig server) {
    auto* impl = impl_.get();
    auto slot = std::make_shared<ServerSlot>(
        std::move(server), impl->options,
        [impl](ServerSlot::Change change, const ServerState& state) { impl->on_slot(change, state); });
    {
        std::lock_guard lock(impl->mutex);
        if (impl->closed) throw std::logic_error("the ClientGroup is closed");
        for (const auto& other : impl->slots) {
            if (other->name() == slot->name())
                throw std::invalid_argument("the group has a server named \"" + slot->name() + "\" already");
        }
        impl->slots.push_back(slot);
        // Started under the lock, so that remove() and close() never see a thread half made.
        slot->start();
    }
}

bool ClientGroup::remove(std::string_view server) {
    std::shared_ptr<ServerSlot> slot;
    {
        std::lock_guard lock(impl_->mutex);
        auto it =
            std::find_if(impl_->slots.begin(), impl_->slots.end(), [&](const auto& s) { return s->name() == server; });
        if (it == impl_->slots.end()) return false;
        if ((*it)->on_own_thread())
            throw std::logic_error("a ClientGroup server cannot be removed from its own callback");
        slot = *it;
        impl_->slots.erase(it);
    }
    impl_->changed.notify_all();  // for wait_attempt()
    slot->stop();
    if (impl_->options.on_change) impl_->options.on_change();
    return true;
}

bool ClientGroup::reconnect(std::string_view server) {
    auto slot = impl_->find(server);
    if (!slot) return false;
    slot->reconnect();
    return true;
}

bool ClientGroup::wait_connected(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(impl_->mutex);
    const auto status = [&](ServerStatus wanted) {
        return std::any_of(impl_->slots.begin(), impl_->slots.end(),
                           [&](const auto& slot) { return slot->state().status == wanted; });
    };
    const auto all_connected = [&] {
        return std::all_of(impl_->slots.begin(), impl_->slots.end(),
                           [](const auto& slot) { return slot->state().status == ServerStatus::connected; });
    };
    impl_->changed.wait_for(lock, timeout,
                            [&] { return impl_->closed || all_connected() || status(ServerStatus::failed); });
    return !impl_->closed && all_connected();
}

std::optional<ServerState> ClientGroup::wait_attempt(std::string_view server, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(impl_->mutex);
    std::optional<ServerState> state;
    const auto settled = [&] {
        state.reset();
        if (impl_->closed) return true;
        const auto slot =
            std::find_if(impl_->slots.begin(), impl_->slots.end(), [&](const auto& s) { return s->name() == server; });
        if (slot == impl_->slots.end()) return true;
        state = (*slot)->state();
        return state->status != ServerStatus::connecting;
    };
    impl_->changed.wait_for(lock, timeout, settled);
    return state;
}

void ClientGroup::close() {
    std::vector<std::shared_ptr<ServerSlot>> slots;
    {
        std::lock_guard lock(impl_->mutex);
        for (const auto& slot : impl_->slots) {
            if (slot->on_own_thread())
                throw std::logic_error("a ClientGroup cannot be closed from a server's callback");
        }
        impl_->closed = true;
        slots.swap(impl_->slots);
    }
    impl_->changed.notify_all();
    // Every server closes on its own thread at once (stdio: each may take its shutdown grace).
    for (const auto& slot : slots) slot->request_stop();
    for (const auto& slot : slots) slot->stop();
}

std::vector<ServerState> ClientGroup::servers() const {
    std::vector<ServerState> out;
    for (const auto& slot : impl_->all()) out.push_back(slot->state());
    return out;
}

std::optional<ServerState> ClientGroup::server(std::string_view name) const {
    auto slot = impl_->find(name);
    if (!slot) return std::nullopt;
    return slot->state();
}

std::shared_ptr<Client> ClientGroup::client(std::string_view server) const {
    auto slot = impl_->find(server);
    return slot ? slot->client() : nullptr;
}

std::vector<GroupTool> ClientGroup::tools() const {
    return impl_->named<GroupTool>(&ServerCatalog::tools, ListKind::tools);
}

std::vector<GroupPrompt> ClientGroup::prompts() const {
    return impl_->named<GroupPrompt>(&ServerCatalog::prompts, ListKind::prompts);
}

std::vector<GroupResource> ClientGroup::resources() const {
    std::vector<GroupResource> out;
    for (const auto& e : impl_->listed(&ServerCatalog::resources)) out.push_back({e.server, *e.item});
    return out;
}

std::vector<GroupResourceTemplate> ClientGroup::resource_templates() const {
    std::vector<GroupResourceTemplate> out;
    for (const auto& e : impl_->listed(&ServerCatalog::templates)) out.push_back({e.server, *e.item});
    return out;
}

CallToolResult ClientGroup::call_tool(std::string_view name, boost::json::object arguments,
                                      const CallOptions& options) {
    auto [client, own] = impl_->route(&ServerCatalog::tools, ListKind::tools, name, "tool");
    return client->call_tool(own, std::move(arguments), options);
}

GetPromptResult ClientGroup::get_prompt(std::string_view name, const std::map<std::string, std::string>& arguments,
                                        const CallOptions& options) {
    auto [client, own] = impl_->route(&ServerCatalog::prompts, ListKind::prompts, name, "prompt");
    return client->get_prompt(own, arguments, options);
}

ReadResourceResult ClientGroup::read_resource(std::string_view uri, const CallOptions& options) {
    // The servers that listed the URI, else those whose templates match it.
    std::vector<std::string> owners;
    for (const auto& e : impl_->listed(&ServerCatalog::resources)) {
        if (e.item->uri == uri && std::find(owners.begin(), owners.end(), e.server) == owners.end())
            owners.push_back(e.server);
    }
    if (owners.empty()) {
        for (const auto& e : impl_->listed(&ServerCatalog::templates)) {
            try {
                if (UriTemplate(e.item->uri_template).match(uri) &&
                    std::find(owners.begin(), owners.end(), e.server) == owners.end())
                    owners.push_back(e.server);
            } catch (const std::invalid_argument&) {
                // A template the server wrote wrong matches nothing.
            }
        }
    }
    if (owners.empty())
        throw std::invalid_argument("no server of the group lists " + std::string(uri) + " or a template matching it");
    if (owners.size() > 1) {
        std::string who;
        for (const auto& o : owners) who += (who.empty() ? "\"" : ", \"") + o + "\"";
        throw std::invalid_argument(std::string(uri) + " is listed by several servers (" + who +
                                    "): read it from one of them by name");
    }
    return read_resource(owners.front(), uri, options);
}

ReadResourceResult ClientGroup::read_resource(std::string_view server, std::string_view uri,
                                              const CallOptions& options) {
    return impl_->connected(server)->read_resource(uri, options);
}

}  // namespace mcp
