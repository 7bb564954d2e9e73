#include "store/redis/redis_client.hpp"

#include "store/redis/redis_cluster.hpp"
#include "store/redis/redis_connection.hpp"
#include "store/redis/redis_sentinel.hpp"
#include "store/round_trip_observer.hpp"
#include "store/store_metrics.hpp"
#include "util/log.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>

namespace mcp::detail {

namespace asio = boost::asio;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

namespace {

// Commands whose replies a caller waits for. A replicated one is answered only once the WAIT sent
// after it returns; a WAIT answers the replicated requests it `covers`.
struct Request {
    std::size_t expected = 0;
    std::vector<RespValue> replies;
    std::promise<std::vector<RespValue>> done;
    bool replicated = false;
    std::vector<std::shared_ptr<Request>> covers;  // a WAIT's
    bool settled = false;                          // a request may be failed both as itself and as covered

    void answer(std::vector<RespValue> values) {
        if (std::exchange(settled, true)) return;
        done.set_value(std::move(values));
    }
    void fail(const char* why) {
        if (std::exchange(settled, true)) return;
        done.set_exception(std::make_exception_ptr(StoreUnavailable(why)));
    }
};

// One pipelined command connection, remade whenever it is lost. Touched only on the client's
// thread, except `up`.
struct Link {
    explicit Link(asio::io_context& ioc) : retry(ioc) {}

    std::unique_ptr<RedisStream> socket;
    std::uint64_t generation = 0;  // connections made so far: tells a write's own one
    std::optional<RedisAddress> peer;
    std::atomic<bool> up{false};
    std::deque<std::shared_ptr<Request>> pending;  // sent, in order, waiting for their replies
    std::string outgoing;
    bool writing = false;
    asio::steady_timer retry;
    bool retry_now = false;
    // Replicated writes: whether a WAIT is out, and the writes sent since, which the next covers.
    bool waiting = false;
    std::vector<std::shared_ptr<Request>> uncovered;

    void fail_all(const char* why) {
        for (auto& r : pending) {
            r->fail(why);
            for (auto& c : r->covers) c->fail(why);
        }
        for (auto& c : uncovered) c->fail(why);
        pending.clear();
        uncovered.clear();
        outgoing.clear();
        writing = false;
        waiting = false;
    }
};

}  // namespace

struct RedisClient::Impl : std::enable_shared_from_this<RedisClient::Impl> {
    Impl(RedisUrl u, Options o)
        : url(std::move(u)), options(o), tls(RedisTls::from(url.tls)), work(asio::make_work_guard(ioc)) {
        if (url.sentinels) sentinels.emplace(ioc, *url.sentinels, options.connect_timeout, tls);
        if (options.replica_wait.count() > 0) replicated.emplace(ioc);
    }

    RedisUrl url;
    Options options;
    RedisTls tls;
    asio::io_context ioc;
    asio::executor_work_guard<asio::io_context::executor_type> work;
    std::thread thread;
    std::atomic<bool> stopping{false};

    // Commands; wait_connected() waits on `up_changed` for every link to be up.
    Link commands{ioc};
    mutable std::mutex up_mutex;
    mutable std::condition_variable up_changed;
    // Writes that wait for a replica (Options::replica_wait), on a connection of their own: a
    // WAIT holds up every command behind it on its connection.
    std::optional<Link> replicated;

    // Subscriptions: SUBSCRIBE or SSUBSCRIBE commands (the latter one per slot), each channel
    // confirmed once; `sub_version` changes with them, which restarts the subscription connection.
    std::mutex subs_mutex;
    std::vector<std::vector<std::string>> sub_commands;
    std::size_t sub_channels = 0;
    std::uint64_t sub_version = 0;
    Callback on_message;
    std::function<void()> on_dropped;                         // the server ended a subscription itself (its slot moved)
    std::map<std::string, Callback, std::less<>> by_channel;  // subscribe()'s
    std::vector<std::function<void()>> reconnected;
    std::unique_ptr<RedisStream> sub_socket;
    std::optional<RedisAddress> sub_peer;
    asio::steady_timer sub_retry{ioc};
    bool sub_retry_now = false;
    bool subscribed = false;  // every channel confirmed on the live subscription connection
    // A connection came (back) up since the reconnect callbacks last ran. They run only once
    // both connections are live, because catching up needs commands as well as wake-ups.
    bool catch_up_owed = false;
    asio::steady_timer sub_idle{ioc};  // parks the subscription loop while there is nothing to listen to

    // Through Sentinel: where the master is.
    std::optional<SentinelSet> sentinels;
    std::string last_warning;  // of the connection loops, so a failure that repeats is logged once
    // Why the last connection failed over TLS (a refused certificate, no TLS on the port); empty
    // once one succeeds.
    mutable std::mutex tls_failure_mutex;
    std::string tls_failure;

    // pipeline_replicated(): until when (steady clock ticks) it does not wait for replicas.
    std::atomic<std::int64_t> replica_wait_paused_until{0};

    void set_up(Link& link, bool value) {
        {
            std::lock_guard lock(up_mutex);
            link.up.store(value);
        }
        up_changed.notify_all();
    }

    bool all_up() const { return commands.up.load() && (!replicated || replicated->up.load()); }

    void run_reconnect_callbacks_when_both_live() {
        if (!catch_up_owed || !subscribed || !commands.up.load()) return;
        catch_up_owed = false;
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(subs_mutex);
            callbacks = reconnected;
        }
        for (auto& cb : callbacks) {
            try {
                cb();
            } catch (const std::exception& e) {  // must not end the connection loop that called it
                log().error("Redis reconnect callback failed: {}", e.what());
            }
        }
    }

    // Where Redis is, for the log.
    std::string describe() const {
        if (sentinels) return "Redis master " + sentinels->master_name() + " (through Sentinel)";
        return "Redis at " + RedisAddress{url.host, url.port}.to_string();
    }

    // A warning once, not at every retry of the same failure.
    void warn_once(const std::string& message) {
        if (message == last_warning) return;
        last_warning = message;
        log().warn("{}", message);
    }

    // Whether the server behind a fresh connection may be written to. Through Sentinel, its ROLE
    // must say master: the sentinels' answer may be stale, or the server demoted since.
    bool writable(const RespValue& role, const RedisAddress& at) {
        if (says_master(role)) return true;
        if (role.is_error()) {
            // An ACL user without ROLE: READONLY replies still tell a replica apart.
            warn_once("Redis at " + at.to_string() + " refused ROLE (" + role.text +
                      "); a replica will be noticed by its READONLY replies");
            return true;
        }
        warn_once("Redis at " + at.to_string() + " is not the master of " + sentinels->master_name() + " (ROLE says " +
                  (role.elements.empty() ? std::string("nothing") : role.elements[0].text) +
                  "); asking the sentinels again");
        return false;
    }

    void note_tls_failure(std::string why) {
        if (!why.empty()) warn_once(why);
        std::lock_guard lock(tls_failure_mutex);
        tls_failure = std::move(why);
    }

    // Connects `s` to Redis (through Sentinel: to the master it names), logs in and picks the
    // database; `peer` is where it went.
    asio::awaitable<bool> connect(RedisStream& s, std::optional<RedisAddress>& peer) {
        std::optional<RedisAddress> target = RedisAddress{url.host, url.port};
        if (sentinels) target = co_await sentinels->master();
        if (!target) {
            if (sentinels) note_tls_failure(sentinels->tls_failure());
            co_return false;
        }
        const auto connected = co_await connect_to(s, *target, options.connect_timeout);
        note_tls_failure(connected.tls_failure);
        if (!connected) co_return false;
        RedisCommands hello;
        add_auth(hello, url.username, url.password);
        if (url.db != 0) hello.push_back({"SELECT", std::to_string(url.db)});
        if (sentinels) hello.push_back({"ROLE"});
        if (!hello.empty()) {
            RespParser parser;
            const auto replies = co_await exchange(s, parser, hello, options.command_timeout);
            if (!replies) co_return false;
            const std::size_t setup = replies->size() - (sentinels ? 1 : 0);
            for (std::size_t i = 0; i < setup; ++i) {
                if ((*replies)[i].is_error()) {
                    log().error("Redis refused the connection setup: {}", (*replies)[i].text);
                    co_return false;
                }
            }
            if (sentinels && !writable(replies->back(), *target)) co_return false;
        }
        peer = target;
        co_return true;
    }

    // Sentinel named a new master: connections to any other server are to an old master (hung,
    // cut off, or demoted), so they are closed, and every loop reconnects without waiting.
    void follow(const RedisAddress& master) {
        const auto leave = [&](std::optional<RedisAddress>& peer, std::unique_ptr<RedisStream>& s, bool& now,
                               asio::steady_timer& retry) {
            if (peer == master) return;
            if (peer && s) s->close();
            now = true;
            retry.cancel();
        };
        leave(commands.peer, commands.socket, commands.retry_now, commands.retry);
        if (replicated) leave(replicated->peer, replicated->socket, replicated->retry_now, replicated->retry);
        leave(sub_peer, sub_socket, sub_retry_now, sub_retry);
    }

    // Waits before the next connection attempt (longer each time), unless Sentinel named a new
    // master meanwhile: then the next attempt is at once.
    asio::awaitable<void> back_off(asio::steady_timer& timer, bool& now, std::chrono::milliseconds& backoff) {
        if (!now) {
            timer.expires_after(backoff);
            co_await timer.async_wait(use_tuple);
        }
        backoff = std::exchange(now, false) ? std::chrono::milliseconds(50)
                                            : std::min(backoff * 2, std::chrono::milliseconds(2000));
    }

    void write_more(Link& link) {
        if (link.writing || link.outgoing.empty() || !link.socket) return;
        link.writing = true;
        auto bytes = std::make_shared<std::string>(std::exchange(link.outgoing, {}));
        asio::async_write(*link.socket, asio::buffer(*bytes),
                          [self = shared_from_this(), &link, bytes, generation = link.generation](
                              boost::system::error_code ec, std::size_t) {
                              // A write to a connection since closed (Sentinel named another
                              // master) must not touch the one that replaced it.
                              if (generation != link.generation) return;
                              link.writing = false;
                              if (ec) {
                                  if (link.socket) link.socket->close();
                                  return;
                              }
                              self->write_more(link);
                          });
    }

    // A WAIT after the replicated writes sent so far: one at a time, so that while a replica
    // takes its time the writes made meanwhile share the next one.
    void send_wait(Link& link, std::vector<std::shared_ptr<Request>> covers) {
        auto wait = std::make_shared<Request>();
        wait->expected = 1;
        wait->covers = std::move(covers);
        link.pending.push_back(std::move(wait));
        link.outgoing += resp_command({"WAIT", "1", std::to_string(options.replica_wait.count())});
        link.waiting = true;
    }

    // Sends a request on `link` (on the client's thread).
    void submit(Link& link, std::shared_ptr<Request> request, const std::string& bytes) {
        if (!link.up.load() || !link.socket) {
            request->fail("Redis is unreachable");
            return;
        }
        link.pending.push_back(request);
        link.outgoing += bytes;
        if (request->replicated) {
            if (link.waiting)
                link.uncovered.push_back(std::move(request));
            else
                send_wait(link, {std::move(request)});
        }
        write_more(link);
    }

    // A request's replies are all in: answer it, unless a WAIT still has to vouch for it. A
    // WAIT's reply goes to every request it covers, after their own.
    void completed(Link& link, const std::shared_ptr<Request>& request) {
        if (request->replicated) return;
        if (request->covers.empty()) {
            request->answer(std::move(request->replies));
            return;
        }
        for (auto& covered : request->covers) {
            auto replies = std::move(covered->replies);
            replies.push_back(request->replies.front());
            covered->answer(std::move(replies));
        }
        link.waiting = false;
        if (!link.uncovered.empty()) {
            send_wait(link, std::exchange(link.uncovered, {}));
            write_more(link);
        }
    }

    // Sends `commands` on `link` from a caller's thread, without waiting.
    std::future<std::vector<RespValue>> start(Link& link, const std::vector<std::vector<std::string>>& list,
                                              bool replicate) {
        if (!link.up.load()) {
            if (metrics::enabled()) store_metrics().errors.add();
            throw StoreUnavailable("Redis is unreachable");
        }
        auto request = std::make_shared<Request>();
        request->expected = list.size();
        request->replicated = replicate;
        auto future = request->done.get_future();
        std::string bytes;
        for (const auto& c : list) bytes += resp_command(c);
        asio::post(ioc, [self = shared_from_this(), &link, request = std::move(request), bytes = std::move(bytes)] {
            self->submit(link, request, bytes);
        });
        return future;
    }

    // Calls `commands` on `link` from a caller's thread; waits up to the command timeout.
    std::vector<RespValue> call(Link& link, const std::vector<std::vector<std::string>>& list, bool replicate) {
        const ReportRoundTrip report(list);
        const auto started = std::chrono::steady_clock::now();
        auto future = start(link, list, replicate);
        const bool counting = metrics::enabled();
        if (future.wait_for(options.command_timeout) != std::future_status::ready) {
            if (counting) store_metrics().errors.add();
            throw StoreUnavailable("Redis did not answer in time");
        }
        if (!counting) return future.get();
        try {
            auto replies = future.get();
            store_metrics().command_seconds.observe(std::chrono::steady_clock::now() - started);
            return replies;
        } catch (const StoreUnavailable&) {
            store_metrics().errors.add();
            throw;
        }
    }

    asio::awaitable<void> run_link(Link& link, bool main) {
        auto backoff = std::chrono::milliseconds(50);
        bool connected_before = false;
        bool reported = false;
        while (!stopping.load()) {
            link.socket = std::make_unique<RedisStream>(ioc, tls);
            ++link.generation;
            if (co_await connect(*link.socket, link.peer)) {
                backoff = std::chrono::milliseconds(50);
                set_up(link, true);
                if (main) {
                    if (connected_before && metrics::enabled()) store_metrics().reconnects.add();
                    connected_before = true;
                    if (reported) log().info("{} is back, at {}", describe(), link.peer->to_string());
                    last_warning.clear();
                    catch_up_owed = true;
                    run_reconnect_callbacks_when_both_live();
                }
                reported = false;
                co_await read_replies(link);
                set_up(link, false);
            }
            link.peer.reset();
            link.socket->close();
            link.socket.reset();
            link.fail_all("Redis connection lost");
            if (stopping.load()) break;
            if (main && !reported) log().warn("{} is unreachable; retrying", describe());
            reported = true;
            co_await back_off(link.retry, link.retry_now, backoff);
        }
    }

    // Hands each reply on a command connection to the request waiting for it, until the
    // connection ends or must be dropped.
    asio::awaitable<void> read_replies(Link& link) {
        RespParser parser;
        char buffer[16 * 1024];
        while (true) {
            auto [ec, n] = co_await link.socket->async_read_some(asio::buffer(buffer), use_tuple);
            if (ec) co_return;
            try {
                parser.feed(std::string_view(buffer, n));
                while (auto reply = parser.next()) {
                    if (link.pending.empty()) co_return;  // a reply nobody asked for: the stream is out of step
                    // A server that became a replica answers writes with READONLY: the caller
                    // gets the error, and the connection goes to find the master.
                    const bool demoted = reply->is_error() && reply->text.starts_with("READONLY");
                    auto front = link.pending.front();
                    front->replies.push_back(std::move(*reply));
                    if (front->replies.size() == front->expected) {
                        link.pending.pop_front();
                        completed(link, front);
                    }
                    if (demoted) {
                        log().warn("Redis at {} is a replica now (READONLY); finding the master again",
                                   link.peer ? link.peer->to_string() : std::string("?"));
                        co_return;
                    }
                }
            } catch (const std::exception& e) {
                log().error("Redis protocol error: {}", e.what());
                co_return;
            }
        }
    }

    asio::awaitable<void> run_subscriptions() {
        auto backoff = std::chrono::milliseconds(50);
        while (!stopping.load()) {
            std::string bytes;
            std::size_t channels = 0;
            std::uint64_t version = 0;
            {
                std::lock_guard lock(subs_mutex);
                for (const auto& command : sub_commands) bytes += resp_command(command);
                channels = sub_channels;
                version = sub_version;
            }
            if (channels == 0) {  // nothing to listen to yet; set_subscriptions() wakes us
                sub_idle.expires_after(std::chrono::hours(24));
                co_await sub_idle.async_wait(use_tuple);
                continue;
            }
            sub_socket = std::make_unique<RedisStream>(ioc, tls);
            if (co_await connect(*sub_socket, sub_peer)) {
                backoff = std::chrono::milliseconds(50);
                auto [wec, n] = co_await asio::async_write(*sub_socket, asio::buffer(bytes), use_tuple);
                RespParser parser;
                char buffer[16 * 1024];
                std::size_t confirmed = 0;
                bool dropped = false;
                while (!wec && !dropped) {
                    auto [ec, got] = co_await sub_socket->async_read_some(asio::buffer(buffer), use_tuple);
                    if (ec) break;
                    try {
                        parser.feed(std::string_view(buffer, got));
                        while (auto reply = parser.next()) dropped = dispatch(*reply, channels, confirmed) || dropped;
                    } catch (const std::exception& e) {
                        log().error("Redis protocol error on the subscription: {}", e.what());
                        break;
                    }
                    if (resubscribe_wanted(version)) break;  // the channels changed: subscribe again
                }
                if (dropped) {
                    std::function<void()> tell;
                    {
                        std::lock_guard lock(subs_mutex);
                        tell = on_dropped;
                    }
                    if (tell) tell();
                }
            }
            subscribed = false;
            sub_peer.reset();
            sub_socket->close();
            sub_socket.reset();
            if (stopping.load()) break;
            co_await back_off(sub_retry, sub_retry_now, backoff);
        }
    }

    bool resubscribe_wanted(std::uint64_t version) {
        std::lock_guard lock(subs_mutex);
        return sub_version != version;
    }

    // True when the server ended a subscription of its own accord (on a cluster, the channel's slot
    // moved to another node): the connection is then remade, after the caller is told.
    bool dispatch(const RespValue& reply, std::size_t wanted, std::size_t& confirmed) {
        if (reply.type != RespValue::Type::array || reply.elements.empty()) return false;
        const auto& kind = reply.elements[0].text;
        if (kind == "subscribe" || kind == "ssubscribe") {
            if (++confirmed == wanted) {
                subscribed = true;
                catch_up_owed = true;
                run_reconnect_callbacks_when_both_live();
            }
            return false;
        }
        if (kind == "sunsubscribe" || kind == "unsubscribe") return true;
        if ((kind != "message" && kind != "smessage") || reply.elements.size() != 3) return false;
        if (metrics::enabled()) store_metrics().wakeups.add();
        Callback target;
        {
            std::lock_guard lock(subs_mutex);
            target = on_message;
        }
        if (target) target(reply.elements[1].text, reply.elements[2].text);
        return false;
    }

    void set_subscriptions(std::vector<std::vector<std::string>> commands, Callback message,
                           std::function<void()> dropped) {
        {
            std::lock_guard lock(subs_mutex);
            sub_channels = 0;
            for (const auto& c : commands) sub_channels += c.size() - 1;
            sub_commands = std::move(commands);
            on_message = std::move(message);
            on_dropped = std::move(dropped);
            ++sub_version;
        }
        // Restart the subscription connection so it has the new channels (or wake the loop parked
        // because there were none yet).
        asio::post(ioc, [self = shared_from_this()] {
            boost::system::error_code ignored;
            if (self->sub_socket) self->sub_socket->socket().cancel(ignored);
            self->sub_idle.cancel();
        });
    }
};

RedisClient::RedisClient(RedisUrl url, Options options) {
    if (url.cluster) {
        cluster_ = std::make_unique<RedisCluster>(std::move(url), options);
        return;
    }
    impl_ = std::make_shared<Impl>(std::move(url), options);
    asio::co_spawn(impl_->ioc, impl_->run_link(impl_->commands, true), asio::detached);
    if (impl_->replicated) asio::co_spawn(impl_->ioc, impl_->run_link(*impl_->replicated, false), asio::detached);
    asio::co_spawn(impl_->ioc, impl_->run_subscriptions(), asio::detached);
    if (impl_->sentinels) {
        asio::co_spawn(impl_->ioc, impl_->sentinels->watch([impl = impl_.get()](const RedisAddress& master) {
            impl->follow(master);
        }),
                       asio::detached);
    }
    impl_->thread = std::thread([impl = impl_] { impl->ioc.run(); });
}

RedisClient::~RedisClient() {
    if (cluster_) return;
    impl_->stopping.store(true);
    asio::post(impl_->ioc, [impl = impl_] {
        for (Link* link : {&impl->commands, impl->replicated ? &*impl->replicated : nullptr}) {
            if (link == nullptr) continue;
            if (link->socket) link->socket->close();
            link->retry.cancel();
        }
        if (impl->sub_socket) impl->sub_socket->close();
        if (impl->sentinels) impl->sentinels->close();
        impl->sub_idle.cancel();
        impl->sub_retry.cancel();
        impl->work.reset();
        impl->ioc.stop();
    });
    impl_->thread.join();
}

std::vector<RespValue> RedisClient::pipeline(const std::vector<std::vector<std::string>>& commands) {
    if (commands.empty()) return {};
    if (cluster_) return cluster_->pipeline(commands, false);
    return impl_->call(impl_->commands, commands, false);
}

std::vector<RespValue> RedisClient::pipeline_replicated(const std::vector<std::vector<std::string>>& commands) {
    using Clock = std::chrono::steady_clock;
    if (cluster_) return cluster_->pipeline(commands, true);
    if (!impl_->replicated || commands.empty() ||
        Clock::now().time_since_epoch().count() < impl_->replica_wait_paused_until.load()) {
        return pipeline(commands);
    }
    auto replies = impl_->call(*impl_->replicated, commands, true);
    const auto& acks = replies.back();
    if (acks.type != RespValue::Type::integer || acks.integer < 1) {
        constexpr auto pause = std::chrono::seconds(10);
        impl_->replica_wait_paused_until.store((Clock::now() + pause).time_since_epoch().count());
        log().warn("no Redis replica acknowledged a write within {} ms ({}); not waiting for replicas for {} s",
                   impl_->options.replica_wait.count(), acks.is_error() ? acks.text : std::to_string(acks.integer),
                   pause.count());
    }
    replies.pop_back();
    return replies;
}

RespValue RedisClient::command(std::vector<std::string> args) {
    auto replies = pipeline({std::move(args)});
    return std::move(replies.front());
}

bool RedisClient::connected() const { return cluster_ ? cluster_->connected() : impl_->commands.up.load(); }

std::string RedisClient::tls_failure() const {
    if (cluster_) return cluster_->tls_failure();
    std::lock_guard lock(impl_->tls_failure_mutex);
    return impl_->tls_failure;
}

bool RedisClient::wait_connected(std::chrono::milliseconds timeout) const {
    if (cluster_) return cluster_->wait_connected(timeout);
    std::unique_lock lock(impl_->up_mutex);
    return impl_->up_changed.wait_for(lock, timeout, [&] { return impl_->all_up(); });
}

std::future<std::vector<RespValue>> RedisClient::send(const std::vector<std::vector<std::string>>& commands) {
    return impl_->start(impl_->commands, commands, false);
}

std::chrono::milliseconds RedisClient::command_timeout() const {
    return cluster_ ? cluster_->command_timeout() : impl_->options.command_timeout;
}

void RedisClient::subscribe(const std::vector<std::string>& channels, Callback callback) {
    if (cluster_) return cluster_->subscribe(channels, std::move(callback));
    std::vector<std::string> command{"SUBSCRIBE"};
    {
        std::lock_guard lock(impl_->subs_mutex);
        for (const auto& channel : channels) impl_->by_channel.insert_or_assign(channel, callback);
        for (const auto& entry : impl_->by_channel) command.push_back(entry.first);
    }
    impl_->set_subscriptions({std::move(command)},
                             [impl = impl_.get()](std::string_view channel, std::string_view message) {
                                 Callback target;
                                 {
                                     std::lock_guard lock(impl->subs_mutex);
                                     if (auto it = impl->by_channel.find(channel); it != impl->by_channel.end())
                                         target = it->second;
                                 }
                                 if (target) target(channel, message);
                             },
                             {});
}

void RedisClient::set_subscriptions(std::vector<std::vector<std::string>> commands, Callback on_message,
                                    std::function<void()> on_dropped) {
    impl_->set_subscriptions(std::move(commands), std::move(on_message), std::move(on_dropped));
}

void RedisClient::publish(const std::string& channel, const std::string& message) {
    const auto reply = command({cluster_ ? "SPUBLISH" : "PUBLISH", channel, message});
    if (reply.is_error()) throw StoreUnavailable("Redis refused a command: " + reply.text);
}

unsigned RedisClient::channel_shards() const { return cluster_ ? kClusterChannelShards : 1; }

void RedisClient::on_reconnect(std::function<void()> callback) {
    if (cluster_) return cluster_->on_reconnect(std::move(callback));
    std::lock_guard lock(impl_->subs_mutex);
    impl_->reconnected.push_back(std::move(callback));
}

}  // namespace mcp::detail
