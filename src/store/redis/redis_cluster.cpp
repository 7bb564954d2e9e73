#include "store/redis/redis_cluster.hpp"

#include "store/redis/redis_slot.hpp"
#include "store/round_trip_observer.hpp"
#include "store/store_metrics.hpp"
#include "util/log.hpp"

#include <algorithm>
#include <cctype>
#include <random>
#include <set>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kRefreshEvery{1000};
constexpr int kMaxAttempts = 16;  // redirects and retries of one command
// The replica wait of each master's client, as through Sentinel (ADR 0020, decision 5).
constexpr std::chrono::milliseconds kReplicaWait{100};

bool named(const std::string& name, std::string_view upper) {
    return std::equal(name.begin(), name.end(), upper.begin(), upper.end(),
                      [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; });
}

// A jittered pause before a retry: 5 ms doubling to 200 ms, times 0.5 to 1.5.
std::chrono::microseconds back_off(int attempt) {
    thread_local std::minstd_rand random{std::random_device{}()};
    const auto base = std::min<std::int64_t>(5'000LL << std::min(attempt, 6), 200'000);
    std::uniform_int_distribution<std::int64_t> spread(base / 2, base + base / 2);
    return std::chrono::microseconds(spread(random));
}

}  // namespace

std::optional<std::string_view> routing_key(const std::vector<std::string>& command) {
    if (command.size() < 2) return std::nullopt;
    const auto& name = command[0];
    if (named(name, "EVAL") || named(name, "EVALSHA")) {
        if (command.size() < 4 || command[2] == "0") return std::nullopt;
        return command[3];
    }
    for (const std::string_view keyless : {"PING", "CLUSTER", "INFO", "ECHO", "TIME", "WAIT", "ROLE", "CONFIG"}) {
        if (named(name, keyless)) return std::nullopt;
    }
    return command[1];
}

RedisCluster::RedisCluster(RedisUrl url, RedisClient::Options options) : url_(std::move(url)), options_(options) {
    owner_.fill(kNoMaster);
    refresher_ = std::thread([this] { refresh_loop(); });
}

RedisCluster::~RedisCluster() {
    {
        std::lock_guard lock(refresh_mutex_);
        stopping_ = true;
    }
    refresh_wanted_.notify_all();
    refresher_.join();
    std::map<std::string, Node> nodes;
    {
        std::unique_lock lock(map_mutex_);
        nodes.swap(nodes_);
    }
    nodes.clear();  // each client's thread joined here, on none of theirs
}

RedisCluster::Node RedisCluster::node(const RedisAddress& address) {
    const auto name = address.to_string();
    {
        std::shared_lock lock(map_mutex_);
        if (auto it = nodes_.find(name); it != nodes_.end()) return it->second;
    }
    RedisUrl one = url_;
    one.cluster.reset();
    one.host = address.host;
    one.port = address.port;
    auto options = options_;
    options.replica_wait = kReplicaWait;
    auto made = std::make_shared<RedisClient>(std::move(one), options);
    made->on_reconnect([this] {
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(subs_mutex_);
            callbacks = reconnected_;
        }
        for (auto& cb : callbacks) cb();
    });
    std::unique_lock lock(map_mutex_);
    auto [it, added] = nodes_.emplace(name, made);
    if (!added) {
        auto kept = it->second;
        lock.unlock();  // another thread made it first; ours goes, off the map's lock
        made.reset();
        return kept;
    }
    lock.unlock();
    std::lock_guard forget(resubscribe_mutex_);  // a new client has no subscriptions yet
    subscribed_.erase(name);
    return made;
}

std::optional<RedisAddress> RedisCluster::master_of(std::uint16_t slot) const {
    std::shared_lock lock(map_mutex_);
    const auto i = owner_[slot];
    if (i == kNoMaster) return std::nullopt;
    return masters_[i];
}

void RedisCluster::moved(std::uint16_t slot, const RedisAddress& to) {
    {
        std::unique_lock lock(map_mutex_);
        auto it = std::find(masters_.begin(), masters_.end(), to);
        if (it == masters_.end()) it = masters_.insert(masters_.end(), to);
        owner_[slot] = static_cast<std::uint16_t>(it - masters_.begin());
    }
    refresh_soon();
}

void RedisCluster::refresh_soon() {
    {
        std::lock_guard lock(refresh_mutex_);
        refresh_now_ = true;
    }
    refresh_wanted_.notify_all();
}

void RedisCluster::refresh_loop() {
    std::unique_lock lock(refresh_mutex_);
    while (!stopping_) {
        refresh_now_ = false;
        lock.unlock();
        try {
            refresh();
        } catch (const std::exception& e) {
            log().warn("Redis Cluster: reading the slot map failed: {}", e.what());
        }
        lock.lock();
        refresh_wanted_.wait_for(lock, kRefreshEvery, [&] { return stopping_ || refresh_now_; });
    }
}

// Asks the masters known, then the URL's nodes, for the slot map; the first valid answer is used.
bool RedisCluster::refresh() {
    std::vector<RedisAddress> candidates;
    {
        std::shared_lock lock(map_mutex_);
        candidates = masters_;
    }
    for (const auto& seed : *url_.cluster) {
        if (std::find(candidates.begin(), candidates.end(), seed) == candidates.end()) candidates.push_back(seed);
    }
    // Connected ones first: one that is down costs a connect timeout.
    std::stable_partition(candidates.begin(), candidates.end(), [&](const RedisAddress& a) {
        std::shared_lock lock(map_mutex_);
        auto it = nodes_.find(a.to_string());
        return it != nodes_.end() && it->second->connected();
    });
    for (const auto& candidate : candidates) {
        {
            std::lock_guard lock(refresh_mutex_);
            if (stopping_) return false;
        }
        auto client = node(candidate);
        if (!client->connected() && !client->wait_connected(options_.connect_timeout)) continue;
        try {
            const auto shards = cluster_shards(client->command({"CLUSTER", "SHARDS"}), url_.tls.has_value());
            if (!shards) {
                log().warn("Redis Cluster: {} answered CLUSTER SHARDS with nothing usable", candidate.to_string());
                continue;
            }
            apply(*shards);
            return true;
        } catch (const StoreUnavailable&) {
            continue;
        }
    }
    return false;
}

void RedisCluster::apply(const std::vector<ClusterShard>& shards) {
    std::vector<RedisAddress> masters;
    std::array<std::uint16_t, kClusterSlots> owner{};
    owner.fill(kNoMaster);
    for (const auto& shard : shards) {
        if (!shard.master) continue;
        auto it = std::find(masters.begin(), masters.end(), *shard.master);
        if (it == masters.end()) it = masters.insert(masters.end(), *shard.master);
        const auto index = static_cast<std::uint16_t>(it - masters.begin());
        for (const auto& [first, last] : shard.slots) std::fill(owner.begin() + first, owner.begin() + last + 1, index);
    }
    for (const auto& m : masters) node(m);
    std::vector<Node> gone;  // clients of servers that are no masters now: closed off the lock
    {
        std::unique_lock lock(map_mutex_);
        masters_ = masters;
        owner_ = owner;
        for (auto it = nodes_.begin(); it != nodes_.end();) {
            const bool master = std::any_of(masters.begin(), masters.end(),
                                            [&](const RedisAddress& a) { return a.to_string() == it->first; });
            const bool seed = std::any_of(url_.cluster->begin(), url_.cluster->end(),
                                          [&](const RedisAddress& a) { return a.to_string() == it->first; });
            if (master || (seed && it->second->connected())) {
                ++it;
            } else {
                gone.push_back(std::move(it->second));
                it = nodes_.erase(it);
            }
        }
    }
    resubscribe();
}

// Each master is told the SSUBSCRIBE commands of the channels whose slots it holds, when they
// changed.
void RedisCluster::resubscribe() {
    // The map's lock is never taken while the subscriptions' is held.
    std::vector<std::string> channels;
    {
        std::lock_guard lock(subs_mutex_);
        for (const auto& entry : channels_) channels.push_back(entry.first);
    }
    std::map<std::string, std::map<std::uint16_t, std::vector<std::string>>> wanted;
    for (const auto& channel : channels) {
        const auto slot = key_slot(channel);
        const auto master = master_of(slot);
        if (!master) continue;
        auto& command = wanted[master->to_string()][slot];
        if (command.empty()) command.emplace_back("SSUBSCRIBE");
        command.push_back(channel);
    }
    std::map<std::string, Node> nodes;
    {
        std::shared_lock lock(map_mutex_);
        nodes = nodes_;
    }
    std::lock_guard lock(resubscribe_mutex_);  // one caller at a time compares and sets
    for (const auto& [address, node] : nodes) {
        std::vector<std::vector<std::string>> commands;
        if (auto it = wanted.find(address); it != wanted.end()) {
            for (auto& [slot, command] : it->second) commands.push_back(command);
        }
        auto& current = subscribed_[address];
        if (current == commands) continue;
        current = commands;
        node->set_subscriptions(
            std::move(commands),
            [this](std::string_view channel, std::string_view message) { deliver(channel, message); },
            [this] { refresh_soon(); });
    }
}

void RedisCluster::deliver(std::string_view channel, std::string_view message) {
    RedisClient::Callback target;
    {
        std::lock_guard lock(subs_mutex_);
        if (auto it = channels_.find(channel); it != channels_.end()) target = it->second;
    }
    if (target) target(channel, message);
}

void RedisCluster::subscribe(const std::vector<std::string>& channels, RedisClient::Callback callback) {
    {
        std::lock_guard lock(subs_mutex_);
        for (const auto& channel : channels) channels_.insert_or_assign(channel, callback);
    }
    resubscribe();
}

void RedisCluster::on_reconnect(std::function<void()> callback) {
    std::lock_guard lock(subs_mutex_);
    reconnected_.push_back(std::move(callback));
}

bool RedisCluster::connected() const {
    std::shared_lock lock(map_mutex_);
    if (std::find(owner_.begin(), owner_.end(), kNoMaster) != owner_.end()) return false;
    for (const auto& m : masters_) {
        auto it = nodes_.find(m.to_string());
        if (it == nodes_.end() || !it->second->connected()) return false;
    }
    return true;
}

std::string RedisCluster::tls_failure() const {
    std::shared_lock lock(map_mutex_);
    for (const auto& [address, client] : nodes_) {
        if (auto why = client->tls_failure(); !why.empty()) return why;
    }
    return {};
}

bool RedisCluster::wait_connected(std::chrono::milliseconds timeout) const {
    const auto until = Clock::now() + timeout;
    while (!connected()) {
        if (Clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

std::vector<RespValue> RedisCluster::pipeline(const std::vector<std::vector<std::string>>& commands, bool replicated) {
    const ReportRoundTrip report(commands);
    const auto started = Clock::now();
    const auto deadline = started + options_.command_timeout;
    struct Item {
        std::size_t index;
        std::optional<RedisAddress> to;  // where a redirect sent it; else its slot's master
        bool asking = false;
    };
    struct Batch {
        Node client;
        RedisAddress at;
        std::vector<std::size_t> items;  // in `todo`
        bool asking = false;
        std::future<std::vector<RespValue>> replies;
    };
    std::vector<RespValue> out(commands.size());
    std::vector<Item> todo;
    for (std::size_t i = 0; i < commands.size(); ++i) todo.push_back(Item{i, std::nullopt, false});
    std::string last_problem = "no master for a slot";
    const auto fail = [&](const std::string& why) {
        if (metrics::enabled()) store_metrics().errors.add();
        throw StoreUnavailable("Redis Cluster: " + why);
    };
    for (int attempt = 0;; ++attempt) {
        std::vector<Item> again;
        bool pause = false;
        // Route: a batch per master, and one per asked-for command (ASKING holds for one command).
        std::vector<Batch> batches;
        for (std::size_t t = 0; t < todo.size(); ++t) {
            auto& item = todo[t];
            auto to = item.to;
            if (!to) {
                const auto key = routing_key(commands[item.index]);
                to = key ? master_of(key_slot(*key)) : [&]() -> std::optional<RedisAddress> {
                    std::shared_lock lock(map_mutex_);
                    if (masters_.empty()) return std::nullopt;
                    return masters_.front();
                }();
            }
            if (!to) {
                again.push_back(Item{item.index, std::nullopt, false});
                pause = true;
                refresh_soon();
                continue;
            }
            auto batch = std::find_if(batches.begin(), batches.end(),
                                      [&](const Batch& b) { return !b.asking && !item.asking && b.at == *to; });
            if (batch == batches.end()) batch = batches.insert(batches.end(), Batch{nullptr, *to, {}, item.asking, {}});
            batch->items.push_back(t);
        }
        // Send every batch, then wait for each.
        std::vector<std::optional<std::vector<RespValue>>> direct(batches.size());
        for (std::size_t b = 0; b < batches.size(); ++b) {
            auto& batch = batches[b];
            batch.client = node(batch.at);
            std::vector<std::vector<std::string>> list;
            if (batch.asking) list.push_back({"ASKING"});
            for (const auto t : batch.items) list.push_back(commands[todo[t].index]);
            bool sent = false;  // then a failure may come after the commands ran: not sent again
            try {
                if (replicated && !batch.asking) {
                    if (!batch.client->connected()) throw StoreUnavailable("unreachable");
                    sent = true;
                    direct[b] = batch.client->pipeline_replicated(list);
                } else {
                    batch.replies = batch.client->send(list);  // throws only when nothing was sent
                }
            } catch (const StoreUnavailable&) {
                if (sent) throw;
                // Not sent: its master is down or not connected yet.
                last_problem = batch.at.to_string() + " unreachable";
                for (const auto t : batch.items) again.push_back(Item{todo[t].index, std::nullopt, false});
                pause = true;
                refresh_soon();
                batch.items.clear();
            }
        }
        for (std::size_t b = 0; b < batches.size(); ++b) {
            auto& batch = batches[b];
            if (batch.items.empty()) continue;
            std::vector<RespValue> replies;
            if (direct[b]) {
                replies = std::move(*direct[b]);
            } else {
                if (batch.replies.wait_until(deadline) != std::future_status::ready)
                    fail(batch.at.to_string() + " did not answer in time");
                replies = batch.replies.get();  // throws when the connection was lost: it may have run
            }
            const std::size_t skip = batch.asking ? 1 : 0;
            for (std::size_t k = 0; k < batch.items.size(); ++k) {
                auto& reply = replies[k + skip];
                const auto index = todo[batch.items[k]].index;
                if (!reply.is_error()) {
                    out[index] = std::move(reply);
                    continue;
                }
                if (auto redirect = cluster_redirect(reply.text, batch.at.host)) {
                    if (!redirect->ask) moved(redirect->slot, redirect->to);
                    again.push_back(Item{index, redirect->to, redirect->ask});
                    last_problem = reply.text;
                    continue;
                }
                if (reply.text.starts_with("TRYAGAIN") || reply.text.starts_with("CLUSTERDOWN")) {
                    again.push_back(Item{index, std::nullopt, false});
                    last_problem = reply.text;
                    pause = true;
                    if (reply.text.starts_with("CLUSTERDOWN")) refresh_soon();
                    continue;
                }
                out[index] = std::move(reply);
            }
        }
        if (again.empty()) break;
        if (attempt + 1 >= kMaxAttempts) fail(last_problem);
        if (pause) {
            const auto wake = Clock::now() + back_off(attempt);
            if (wake >= deadline) fail(last_problem);
            std::this_thread::sleep_until(wake);
        }
        todo = std::move(again);
    }
    if (metrics::enabled()) store_metrics().command_seconds.observe(Clock::now() - started);
    return out;
}

}  // namespace mcp::detail
