#include "gateway.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/server/server.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace mcp_gateway {

namespace {

// How long a call waits for a stopped child to start again.
constexpr std::chrono::seconds kStartAgainWait{30};
// A call that has just taken its child's client is counted in flight a moment later: the child is
// not stopped to make room for this long after. A call that needs the room waits that long for it.
constexpr std::chrono::milliseconds kJustUsed{200};

mcp::ClientOptions inner_client_options(const mcp::Server& server) {
    mcp::ClientOptions options;
    options.info = {.name = "mcp-cpp-gateway", .version = MCP_CPP_VERSION};
    // Every caller shares the inner client: a result read for one must never be served to another.
    options.cache_entries = 0;
    // An inner task is followed to its end, and the caller's call becomes a task with it.
    options.tasks = true;
    // One exporter for the process: the upstream calls' spans go with the server's own.
    options.tracer = server.tracer();
    return options;
}

}  // namespace

Gateway::Gateway(mcp::Server& server, const std::vector<mcp::ServerConfig>& servers, bool prefixed, ChildLimits limits)
    : limits_(limits) {
    if (!prefixed && servers.size() > 1) {
        throw std::invalid_argument("--no-prefix serves one server; the configuration has " +
                                    std::to_string(servers.size()));
    }
    std::set<std::string> prefixes;
    for (const auto& config : servers) {
        std::string prefix = prefixed ? mcp::mount_prefix(config.name) : std::string();
        if (!prefixes.insert(prefix).second) {
            throw std::invalid_argument("servers \"" + config.name + "\" and another one would both be named \"" +
                                        prefix + "_...\"; rename one");
        }
        mounts_.emplace(config.name,
                        std::make_shared<mcp::Mount>(server, std::move(prefix),
                                                     [this, name = config.name] { return client_for(name); }));
        if (config.transport == mcp::ServerTransportKind::stdio) {
            auto child = config;
            child.limits = config.limits.or_defaults(limits_.resources);
            children_.emplace(config.name, Child{.config = std::move(child)});
            listed_[config.name] = false;
        }
    }
    mcp::ClientGroupOptions options;
    // The inner server's elicitation and sampling reach the caller of the mounted tool, its
    // resources/updated the subscribers of the mounted URI. Its list_changed reach the group, whose
    // on_change updates the mounts.
    options.client_options = [this, &server](const mcp::ServerConfig& config) {
        auto client_options = inner_client_options(server);
        client_options.handlers = mounts_.at(config.name)->handlers();
        client_options.handlers.list_changed = nullptr;
        return client_options;
    };
    options.naming = mcp::GroupNaming::prefix_always;
    options.on_change = [this] { update(); };
    options.on_state = [this](const mcp::ServerState& state) {
        report(state);
        update();
    };
    group_ = std::make_unique<mcp::ClientGroup>(std::move(options));
    for (const auto& config : servers) {
        const auto child = children_.find(config.name);
        group_->add(child != children_.end() ? child->second.config : config);
    }
    if (limits_.idle_stop || limits_.max_children > 0)
        watcher_ = std::jthread([this](const std::stop_token& stop) { watch_children(stop); });
}

Gateway::~Gateway() {
    close();
    mounts_.clear();
}

bool Gateway::wait_started(std::chrono::milliseconds timeout) const {
    const auto until = Clock::now() + timeout;
    for (const auto& state : group_->servers()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        group_->wait_attempt(state.name, std::max(left, std::chrono::milliseconds(0)));
    }
    const auto states = group_->servers();
    return std::all_of(states.begin(), states.end(),
                       [](const mcp::ServerState& s) { return s.status == mcp::ServerStatus::connected; });
}

std::vector<mcp::ServerState> Gateway::servers() const { return group_->servers(); }

void Gateway::close() {
    if (watcher_.joinable()) {
        watcher_.request_stop();
        watcher_.join();
    }
    group_->close();
}

std::shared_ptr<mcp::Client> Gateway::client_for(const std::string& name) {
    bool child = false;
    {
        std::unique_lock lock(children_mutex_);
        if (auto it = children_.find(name); it != children_.end()) {
            child = true;
            it->second.last_call = Clock::now();
            const auto room_until = Clock::now() + 2 * kJustUsed;
            while (it->second.stopped && !make_room(name)) {
                if (Clock::now() >= room_until) {
                    throw mcp::Error(mcp::error_code::internal_error,
                                     "mcp-cpp-gateway runs at most " + std::to_string(limits_.max_children) +
                                         " servers (--max-children), each with a call in flight now; \"" + name +
                                         "\" cannot be started, try again later",
                                     boost::json::object{{"server", name}});
                }
                lock.unlock();
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                lock.lock();
            }
            if (it->second.stopped) {
                it->second.stopped = false;
                std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" started again for a call\n", name.c_str());
                group_->add(it->second.config);
            }
        }
    }
    auto client = group_->client(name);
    if (!child || (client && listed_.at(name).load())) return client;
    // Started by this call or by another one a moment ago: wait until it answers. Meanwhile the
    // limits leave it running, however long its start takes.
    {
        std::lock_guard lock(children_mutex_);
        ++children_.at(name).calls_waiting;
    }
    group_->wait_attempt(name, kStartAgainWait);
    {
        std::lock_guard lock(children_mutex_);
        auto& waited = children_.at(name);
        --waited.calls_waiting;
        waited.last_call = Clock::now();  // its idle time starts now, not before its start
    }
    return group_->client(name);
}

std::size_t Gateway::running_children() const {
    return static_cast<std::size_t>(
        std::count_if(children_.begin(), children_.end(), [](const auto& c) { return !c.second.stopped; }));
}

bool Gateway::idle(const std::string& name, const Child& child, Clock::duration quiet) const {
    return !child.stopped && child.calls_waiting == 0 && listed_.at(name).load() &&
           Clock::now() - child.last_call >= quiet && mounts_.at(name)->calls_in_flight() == 0;
}

bool Gateway::make_room(const std::string& starting) {
    if (limits_.max_children == 0 || running_children() < limits_.max_children) return true;
    auto least_recent = children_.end();
    for (auto it = children_.begin(); it != children_.end(); ++it) {
        if (it->first == starting || !idle(it->first, it->second, kJustUsed)) continue;
        if (least_recent == children_.end() || it->second.last_call < least_recent->second.last_call) least_recent = it;
    }
    if (least_recent == children_.end()) return false;
    stop_child(least_recent->first, least_recent->second, "to make room (--max-children)");
    return true;
}

void Gateway::stop_child(const std::string& name, Child& child, const char* why) {
    child.stopped = true;
    std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" stopped %s; its entries stay listed\n", name.c_str(), why);
    group_->remove(name);
}

void Gateway::watch_children(const std::stop_token& stop) {
    using std::chrono::milliseconds;
    const auto tick = limits_.idle_stop ? std::clamp(*limits_.idle_stop / 4, milliseconds(50), milliseconds(1000))
                                        : milliseconds(1000);
    std::unique_lock lock(children_mutex_);
    while (!stop.stop_requested()) {
        watcher_wake_.wait_for(lock, stop, tick, [] { return false; });  // a tick, or the stop
        if (stop.stop_requested()) break;
        if (limits_.idle_stop) {
            for (auto& [name, child] : children_) {
                if (idle(name, child, *limits_.idle_stop)) stop_child(name, child, "after being idle");
            }
        }
        // Every server is started once, to be listed; then the limit holds.
        while (limits_.max_children > 0 && running_children() > limits_.max_children && make_room({})) {}
    }
}

void Gateway::report(const mcp::ServerState& state) {
    std::lock_guard lock(report_mutex_);
    int& reported = reported_failures_[state.name];
    switch (state.status) {
        case mcp::ServerStatus::connected:
            if (reported > 0) std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" is back\n", state.name.c_str());
            reported = 0;
            break;
        case mcp::ServerStatus::reconnecting:
            if (state.failures <= reported) break;  // the next attempt starting: told already
            reported = state.failures;
            std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" failed (%d in a row), restarting: %s\n",
                         state.name.c_str(), state.failures, state.error.c_str());
            break;
        case mcp::ServerStatus::failed:
            std::fprintf(stderr, "mcp-cpp-gateway: server \"%s\" given up after %d failures in a row: %s\n",
                         state.name.c_str(), state.failures, state.error.c_str());
            break;
        case mcp::ServerStatus::connecting:
        case mcp::ServerStatus::closed: break;
    }
}

void Gateway::update() {
    std::lock_guard lock(mutex_);
    std::map<std::string, mcp::MountCatalog> catalogs;
    for (auto& t : group_->tools()) catalogs[t.server].tools.push_back(std::move(t.tool));
    for (auto& p : group_->prompts()) catalogs[p.server].prompts.push_back(std::move(p.prompt));
    for (auto& r : group_->resources()) catalogs[r.server].resources.push_back(std::move(r.resource));
    for (auto& t : group_->resource_templates()) catalogs[t.server].templates.push_back(std::move(t.resource_template));
    for (const auto& state : group_->servers()) {
        auto mount = mounts_.find(state.name);
        if (mount == mounts_.end()) continue;
        switch (state.status) {
            case mcp::ServerStatus::connected:
                mount->second->sync(catalogs[state.name]);
                if (auto listed = listed_.find(state.name); listed != listed_.end()) listed->second = true;
                break;
            case mcp::ServerStatus::failed:
            case mcp::ServerStatus::closed: mount->second->clear(); break;
            case mcp::ServerStatus::connecting:
            case mcp::ServerStatus::reconnecting: break;
        }
    }
}

}  // namespace mcp_gateway
