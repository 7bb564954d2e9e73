#include "client/group/server_slot.hpp"

#include "client/group/backoff.hpp"
#include "client/group/watched_transport.hpp"
#include "util/log.hpp"

#include <mcp/protocol/errors.hpp>

#include <chrono>
#include <random>
#include <stdexcept>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;

bool declares(const boost::json::object& capabilities, const char* kind) { return capabilities.contains(kind); }

bool declares_list_changed(const boost::json::object& capabilities, const char* kind) {
    const auto* c = capabilities.if_contains(kind);
    if (c == nullptr || !c->is_object()) return false;
    const auto* flag = c->as_object().if_contains("listChanged");
    return flag != nullptr && flag->is_bool() && flag->get_bool();
}

// The lists a server declared, each read to its last page.
std::set<ListKind> declared_lists(const boost::json::object& capabilities) {
    std::set<ListKind> kinds;
    if (declares(capabilities, "tools")) kinds.insert(ListKind::tools);
    if (declares(capabilities, "prompts")) kinds.insert(ListKind::prompts);
    if (declares(capabilities, "resources")) kinds.insert(ListKind::resources);
    return kinds;
}

const char* list_name(ListKind kind) {
    switch (kind) {
        case ListKind::tools: return "tools";
        case ListKind::prompts: return "prompts";
        case ListKind::resources: return "resources";
    }
    return "lists";
}

}  // namespace

ServerSlot::ServerSlot(ServerConfig config, const ClientGroupOptions& options,
                       std::function<void(Change, const ServerState&)> notify)
    : config_(std::move(config)),
      options_(options),
      notify_(std::move(notify)),
      catalog_(std::make_shared<const ServerCatalog>()) {
    state_.name = config_.name;
}

ServerSlot::~ServerSlot() {
    if (!on_own_thread()) stop();
}

void ServerSlot::start() {
    thread_ = std::thread([this] { run(); });
}

void ServerSlot::request_stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        attempt_stop_.request_stop();
    }
    wake_.notify_all();
}

void ServerSlot::stop() {
    if (on_own_thread()) throw std::logic_error("a ClientGroup server cannot be closed from its own callback");
    request_stop();
    if (thread_.joinable()) thread_.join();
}

void ServerSlot::reconnect() {
    {
        std::lock_guard lock(mutex_);
        // Not failed from now on, for whoever waits; the thread publishes the attempt.
        if (state_.status == ServerStatus::failed) state_.status = ServerStatus::reconnecting;
        reconnect_now_ = true;
        attempt_stop_.request_stop();
    }
    wake_.notify_all();
}

ServerState ServerSlot::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

std::shared_ptr<Client> ServerSlot::client() const {
    std::lock_guard lock(mutex_);
    return client_;
}

std::shared_ptr<const ServerCatalog> ServerSlot::catalog() const {
    std::lock_guard lock(mutex_);
    return catalog_;
}

void ServerSlot::publish(const ServerState& state) {
    {
        std::lock_guard lock(mutex_);
        state_ = state;
    }
    notify_(Change::state, state);
}

void ServerSlot::run() {
    int failures = 0;
    bool first = true;
    while (true) {
        std::uint64_t id = 0;
        std::stop_token stop;
        ServerState state = this->state();
        {
            std::lock_guard lock(mutex_);
            if (stopping_) break;
            if (reconnect_now_) failures = 0;
            id = ++attempt_id_;
            attempt_stop_ = std::stop_source();
            stop = attempt_stop_.get_token();
            lost_ = reconnect_now_ = false;
            lost_reason_.clear();
            stale_.clear();
        }
        state.status = first ? ServerStatus::connecting : ServerStatus::reconnecting;
        first = false;
        publish(state);

        const auto started = Clock::now();
        Connection connection;
        std::string error;
        bool permanent = false;
        try {
            connection = attempt(id, stop);
        } catch (const IncompatibleServer& e) {
            error = e.what();
            permanent = true;
        } catch (const std::logic_error& e) {  // the configuration: trying again cannot mend it
            error = e.what();
            permanent = true;
        } catch (const std::exception& e) {
            error = e.what();
        } catch (...) {  // from the application's make_transport or client_options
            error = "an exception that is no std::exception";
        }

        if (connection.client) {
            const auto ended = serve(connection.client);
            {
                std::lock_guard lock(mutex_);
                client_.reset();
                catalog_ = std::make_shared<const ServerCatalog>();
                error = lost_reason_.empty() ? "the connection closed" : lost_reason_;
            }
            notify_(Change::lists, this->state());
            connection.listen.cancel();
            connection.client->close();
            connection = {};
            if (ended == Ended::stopping) break;
            if (ended == Ended::reconnect) {
                failures = 0;
                continue;
            }
            // A connection that lasted ends a run of failures; one that did not adds to it.
            failures = Clock::now() - started >= options_.reconnect.max_delay ? 1 : failures + 1;
        } else {
            ++failures;
        }
        {
            std::lock_guard lock(mutex_);
            if (stopping_) break;
        }
        log().warn("client group: server \"{}\": {}", printable(config_.name), printable(error, 1000));
        if (!wait_before_next(failures, permanent, error)) break;
    }
    auto state = this->state();
    state.status = ServerStatus::closed;
    state.protocol_version.clear();
    publish(state);
}

ServerSlot::Connection ServerSlot::attempt(std::uint64_t id, std::stop_token stop) {
    auto inner = options_.make_transport ? options_.make_transport(config_) : make_transport(config_);
    const std::weak_ptr<ServerSlot> weak = weak_from_this();
    auto transport = std::make_shared<WatchedTransport>(std::move(inner), [weak, id](const std::string& reason) {
        if (auto slot = weak.lock()) slot->on_transport_closed(id, reason);
    });
    auto client_options = options_.client_options ? options_.client_options(config_) : ClientOptions{};
    client_options.handlers.list_changed = [weak, id,
                                            app = std::move(client_options.handlers.list_changed)](ListKind kind) {
        if (auto slot = weak.lock()) slot->on_list_changed(id, kind);
        if (app) app(kind);
    };

    Connection connection;
    connection.client = std::make_shared<Client>(std::move(transport), std::move(client_options));
    auto& client = *connection.client;
    const CallOptions call{.stop = std::move(stop), .timeout = options_.connect_timeout};
    client.connect(call);
    const auto& capabilities = client.server_capabilities();
    if (client.era() == Era::stateless) {
        // 2026 servers tell of list changes on a listen stream only; 2025 ones unasked.
        const ListenFilter filter{.tools_list_changed = declares_list_changed(capabilities, "tools"),
                                  .prompts_list_changed = declares_list_changed(capabilities, "prompts"),
                                  .resources_list_changed = declares_list_changed(capabilities, "resources")};
        if (filter.tools_list_changed || filter.prompts_list_changed || filter.resources_list_changed) {
            try {
                connection.listen = client.listen(filter, call);
            } catch (const Error& e) {
                log().warn("client group: server \"{}\" refused subscriptions/listen ({}); its lists are read once",
                           printable(config_.name), e.what());
            }
        }
    }
    auto catalog = read_lists(client, declared_lists(capabilities), {}, call);

    ServerState state;
    state.name = config_.name;
    state.status = ServerStatus::connected;
    state.protocol_version = client.protocol_version();
    state.server_info = client.server_info();
    {
        std::lock_guard lock(mutex_);
        if (attempt_id_ != id || stopping_) throw Cancelled();
        client_ = connection.client;
        catalog_ = std::make_shared<const ServerCatalog>(std::move(catalog));
    }
    publish(state);
    notify_(Change::lists, state);
    return connection;
}

ServerSlot::Ended ServerSlot::serve(const std::shared_ptr<Client>& client) {
    while (true) {
        std::set<ListKind> kinds;
        std::stop_token stop;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || lost_ || reconnect_now_ || !stale_.empty(); });
            if (stopping_) return Ended::stopping;
            if (lost_) return Ended::lost;
            if (reconnect_now_) return Ended::reconnect;
            kinds.swap(stale_);
            stop = attempt_stop_.get_token();
        }
        try {
            auto updated = read_lists(*client, kinds, *catalog(),
                                      {.stop = stop, .timeout = options_.connect_timeout, .fresh = true});
            {
                std::lock_guard lock(mutex_);
                if (lost_ || stopping_) continue;
                catalog_ = std::make_shared<const ServerCatalog>(std::move(updated));
            }
            notify_(Change::lists, state());
        } catch (const std::exception& e) {
            // A lost connection ends the loop above; anything else keeps the lists it had.
            log().warn("client group: server \"{}\": its lists could not be read again: {}", printable(config_.name),
                       e.what());
        }
    }
}

ServerCatalog ServerSlot::read_lists(Client& client, const std::set<ListKind>& kinds, const ServerCatalog& before,
                                     const CallOptions& options) const {
    ServerCatalog out = before;
    for (const auto kind : kinds) {
        // A server's error for one list leaves that list empty: the rest of it is still of use.
        try {
            switch (kind) {
                case ListKind::tools: out.tools = client.all_tools(options); break;
                case ListKind::prompts: out.prompts = client.all_prompts(options); break;
                case ListKind::resources:
                    out.resources = client.all_resources(options);
                    try {
                        out.templates = client.all_resource_templates(options);
                    } catch (const Error&) {
                        out.templates.clear();  // resources without templates/list
                    }
                    break;
            }
        } catch (const Error& e) {
            log().warn("client group: server \"{}\" answered its {} listing with an error: {}", printable(config_.name),
                       list_name(kind), e.what());
            switch (kind) {
                case ListKind::tools: out.tools.clear(); break;
                case ListKind::prompts: out.prompts.clear(); break;
                case ListKind::resources: out.resources.clear(), out.templates.clear(); break;
            }
        }
    }
    return out;
}

bool ServerSlot::wait_before_next(int failures, bool permanent, const std::string& error) {
    auto state = this->state();
    state.error = error;
    state.failures = failures;
    state.protocol_version.clear();
    state.server_info = {};
    const bool give_up = permanent || failures >= options_.reconnect.max_failures;
    state.status = give_up ? ServerStatus::failed : ServerStatus::reconnecting;
    publish(state);

    thread_local std::minstd_rand random{std::random_device{}()};
    const auto delay = backoff_delay(options_.reconnect, failures, std::uniform_real_distribution<>(0, 1)(random));
    std::unique_lock lock(mutex_);
    const auto woken = [&] { return stopping_ || reconnect_now_; };
    if (give_up)
        wake_.wait(lock, woken);
    else
        wake_.wait_for(lock, delay, woken);
    return !stopping_;
}

void ServerSlot::on_list_changed(std::uint64_t id, ListKind kind) {
    {
        std::lock_guard lock(mutex_);
        if (id != attempt_id_) return;
        stale_.insert(kind);
    }
    wake_.notify_all();
}

void ServerSlot::on_transport_closed(std::uint64_t id, const std::string& reason) {
    {
        std::lock_guard lock(mutex_);
        if (id != attempt_id_) return;
        lost_ = true;
        lost_reason_ = reason;
    }
    wake_.notify_all();
}

}  // namespace mcp::detail
