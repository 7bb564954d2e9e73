#include "store/redis/redis_client.hpp"

#include "store/store_metrics.hpp"
#include "util/log.hpp"
#include "util/percent_encoding.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <atomic>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

namespace mcp::detail {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

namespace {

// User names and passwords arrive percent-encoded when they hold ':', '@', '/' or '%'.
// The message never repeats the text: it may be a password.
std::string userinfo_part(std::string_view text) {
    auto decoded = percent_decoded(text);
    if (!decoded) throw std::invalid_argument("bad percent-encoding in the Redis URL's user or password");
    return std::move(*decoded);
}

}  // namespace

RedisUrl RedisUrl::parse(std::string_view url) {
    constexpr std::string_view scheme = "redis://";
    if (!url.starts_with(scheme)) throw std::invalid_argument("a Redis URL starts with redis://");
    url.remove_prefix(scheme.size());
    RedisUrl out;
    if (const auto at = url.rfind('@'); at != std::string_view::npos) {
        // [user]:password (Redis 6 ACL users), or a bare password as older clients wrote it.
        const auto userinfo = url.substr(0, at);
        if (const auto colon = userinfo.find(':'); colon != std::string_view::npos) {
            out.username = userinfo_part(userinfo.substr(0, colon));
            out.password = userinfo_part(userinfo.substr(colon + 1));
        } else {
            out.password = userinfo_part(userinfo);
        }
        url.remove_prefix(at + 1);
    }
    auto authority = url.substr(0, url.find('/'));
    const auto path = url.size() > authority.size() ? url.substr(authority.size() + 1) : std::string_view();
    const auto bracket = authority.find(']');
    if (const auto colon = authority.rfind(':');
        colon != std::string_view::npos && (bracket == std::string_view::npos || bracket < colon)) {
        unsigned port = 0;
        const auto digits = authority.substr(colon + 1);
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
        if (ec != std::errc() || end != digits.data() + digits.size() || port == 0 || port > 65535) {
            throw std::invalid_argument("bad port in the Redis URL");
        }
        out.port = static_cast<std::uint16_t>(port);
        authority = authority.substr(0, colon);
    }
    if (authority.starts_with('[') && authority.ends_with(']')) authority = authority.substr(1, authority.size() - 2);
    if (!authority.empty()) out.host = authority;
    if (!path.empty()) {
        auto [end, ec] = std::from_chars(path.data(), path.data() + path.size(), out.db);
        if (ec != std::errc() || end != path.data() + path.size() || out.db < 0)
            throw std::invalid_argument("bad database number in the Redis URL");
    }
    return out;
}

namespace {

// A Redis host that crashed or was cut off sends no FIN or RST: without these, the subscription
// connection (which only reads) would wait on it forever and miss every later wake-up. Probes
// after 10 s of silence, every 5 s, 3 unanswered end it; data unacknowledged for 20 s ends it too.
void detect_a_vanished_peer(tcp::socket& s) {
    s.set_option(tcp::socket::keep_alive(true));
    const int fd = s.native_handle();
    const int idle = 10;
    const int interval = 5;
    const int probes = 3;
    const unsigned user_timeout_ms = 20000;
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
    ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
}

// A command batch waiting for its replies.
struct Request {
    std::size_t expected = 0;
    std::vector<RespValue> replies;
    std::promise<std::vector<RespValue>> done;
};

}  // namespace

struct RedisClient::Impl : std::enable_shared_from_this<RedisClient::Impl> {
    Impl(RedisUrl u, Options o) : url(std::move(u)), options(o), work(asio::make_work_guard(ioc)) {}

    RedisUrl url;
    Options options;
    asio::io_context ioc;
    asio::executor_work_guard<asio::io_context::executor_type> work;
    std::thread thread;
    std::atomic<bool> stopping{false};

    // Command connection; touched only on the client's thread, except the flag.
    std::atomic<bool> up{false};
    mutable std::mutex up_mutex;
    mutable std::condition_variable up_changed;
    std::unique_ptr<tcp::socket> socket;
    std::deque<std::shared_ptr<Request>> pending;
    std::string outgoing;
    bool writing = false;

    // Subscriptions.
    std::mutex subs_mutex;
    std::vector<std::pair<std::string, Callback>> patterns;
    std::vector<std::function<void()>> reconnected;
    std::unique_ptr<tcp::socket> sub_socket;
    bool subscribed = false;  // every pattern confirmed on the live subscription connection
    // A connection came (back) up since the reconnect callbacks last ran. They run only once
    // both connections are live, because catching up needs commands as well as wake-ups.
    bool catch_up_owed = false;
    asio::steady_timer sub_idle{ioc};  // parks the subscription loop while there is nothing to listen to

    void set_up(bool value) {
        {
            std::lock_guard lock(up_mutex);
            up.store(value);
        }
        up_changed.notify_all();
    }

    void run_reconnect_callbacks_when_both_live() {
        if (!catch_up_owed || !subscribed || !up.load()) return;
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

    asio::awaitable<bool> connect(tcp::socket& s) {
        tcp::resolver resolver(ioc);
        auto [rec, endpoints] = co_await resolver.async_resolve(url.host, std::to_string(url.port), use_tuple);
        if (rec) co_return false;
        asio::steady_timer timer(ioc);
        timer.expires_after(options.connect_timeout);
        auto result = co_await (asio::async_connect(s, endpoints, use_tuple) || timer.async_wait(use_tuple));
        if (result.index() != 0 || std::get<0>(std::get<0>(result))) co_return false;
        s.set_option(tcp::no_delay(true));
        detect_a_vanished_peer(s);
        // Authenticate and pick the database before anything else.
        std::vector<std::vector<std::string>> hello;
        if (!url.password.empty()) {
            if (url.username.empty())
                hello.push_back({"AUTH", url.password});
            else
                hello.push_back({"AUTH", url.username, url.password});
        }
        if (url.db != 0) hello.push_back({"SELECT", std::to_string(url.db)});
        if (hello.empty()) co_return true;
        std::string bytes;
        for (const auto& c : hello) bytes += resp_command(c);
        auto [wec, n] = co_await asio::async_write(s, asio::buffer(bytes), use_tuple);
        if (wec) co_return false;
        RespParser parser;
        std::size_t answered = 0;
        char buffer[4096];
        while (answered < hello.size()) {
            auto [ec, got] = co_await s.async_read_some(asio::buffer(buffer), use_tuple);
            if (ec) co_return false;
            parser.feed(std::string_view(buffer, got));
            while (auto reply = parser.next()) {
                if (reply->is_error()) {
                    log().error("Redis refused the connection setup: {}", reply->text);
                    co_return false;
                }
                ++answered;
            }
        }
        co_return true;
    }

    void fail_pending(const char* why) {
        for (auto& r : pending) r->done.set_exception(std::make_exception_ptr(StoreUnavailable(why)));
        pending.clear();
        outgoing.clear();
        writing = false;
    }

    void write_more() {
        if (writing || outgoing.empty() || !socket) return;
        writing = true;
        auto bytes = std::make_shared<std::string>(std::exchange(outgoing, {}));
        asio::async_write(*socket, asio::buffer(*bytes),
                          [self = shared_from_this(), bytes](boost::system::error_code ec, std::size_t) {
                              self->writing = false;
                              if (ec) {
                                  if (self->socket) self->socket->close(ec);
                                  return;
                              }
                              self->write_more();
                          });
    }

    asio::awaitable<void> run_commands() {
        auto backoff = std::chrono::milliseconds(50);
        bool connected_before = false;
        asio::steady_timer timer(ioc);
        bool reported = false;
        while (!stopping.load()) {
            socket = std::make_unique<tcp::socket>(ioc);
            if (co_await connect(*socket)) {
                backoff = std::chrono::milliseconds(50);
                if (connected_before && metrics::enabled()) store_metrics().reconnects.add();
                connected_before = true;
                if (reported) log().info("Redis at {}:{} is back", url.host, url.port);
                reported = false;
                set_up(true);
                catch_up_owed = true;
                run_reconnect_callbacks_when_both_live();
                RespParser parser;
                char buffer[16 * 1024];
                while (true) {
                    auto [ec, n] = co_await socket->async_read_some(asio::buffer(buffer), use_tuple);
                    if (ec) break;
                    bool broken = false;
                    try {
                        parser.feed(std::string_view(buffer, n));
                        while (auto reply = parser.next()) {
                            if (pending.empty()) {
                                broken = true;  // a reply nobody asked for: the stream is out of step
                                break;
                            }
                            auto& front = pending.front();
                            front->replies.push_back(std::move(*reply));
                            if (front->replies.size() == front->expected) {
                                front->done.set_value(std::move(front->replies));
                                pending.pop_front();
                            }
                        }
                    } catch (const std::exception& e) {
                        log().error("Redis protocol error: {}", e.what());
                        broken = true;
                    }
                    if (broken) break;
                }
                set_up(false);
            }
            boost::system::error_code ignored;
            socket->close(ignored);
            socket.reset();
            fail_pending("Redis connection lost");
            if (stopping.load()) break;
            if (!reported) log().warn("Redis at {}:{} is unreachable; retrying", url.host, url.port);
            reported = true;
            timer.expires_after(backoff);
            co_await timer.async_wait(use_tuple);
            backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
        }
    }

    asio::awaitable<void> run_subscriptions() {
        asio::steady_timer timer(ioc);
        auto backoff = std::chrono::milliseconds(50);
        while (!stopping.load()) {
            std::vector<std::string> wanted;
            {
                std::lock_guard lock(subs_mutex);
                for (const auto& [p, cb] : patterns) wanted.push_back(p);
            }
            if (wanted.empty()) {  // nothing to listen to yet; psubscribe() wakes us
                sub_idle.expires_after(std::chrono::hours(24));
                co_await sub_idle.async_wait(use_tuple);
                continue;
            }
            sub_socket = std::make_unique<tcp::socket>(ioc);
            if (co_await connect(*sub_socket)) {
                backoff = std::chrono::milliseconds(50);
                std::vector<std::string> command{"PSUBSCRIBE"};
                command.insert(command.end(), wanted.begin(), wanted.end());
                const auto bytes = resp_command(command);
                auto [wec, n] = co_await asio::async_write(*sub_socket, asio::buffer(bytes), use_tuple);
                RespParser parser;
                char buffer[16 * 1024];
                std::size_t confirmed = 0;
                while (!wec) {
                    auto [ec, got] = co_await sub_socket->async_read_some(asio::buffer(buffer), use_tuple);
                    if (ec) break;
                    try {
                        parser.feed(std::string_view(buffer, got));
                        while (auto reply = parser.next()) dispatch(*reply, wanted.size(), confirmed);
                    } catch (const std::exception& e) {
                        log().error("Redis protocol error on the subscription: {}", e.what());
                        break;
                    }
                    if (resubscribe_wanted(wanted)) break;  // patterns were added: subscribe again
                }
            }
            subscribed = false;
            boost::system::error_code ignored;
            sub_socket->close(ignored);
            sub_socket.reset();
            if (stopping.load()) break;
            timer.expires_after(backoff);
            co_await timer.async_wait(use_tuple);
            backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
        }
    }

    bool resubscribe_wanted(const std::vector<std::string>& wanted) {
        std::lock_guard lock(subs_mutex);
        return patterns.size() != wanted.size();
    }

    void dispatch(const RespValue& reply, std::size_t wanted, std::size_t& confirmed) {
        if (reply.type != RespValue::Type::array || reply.elements.empty()) return;
        const auto& kind = reply.elements[0].text;
        if (kind == "psubscribe") {
            if (++confirmed == wanted) {
                subscribed = true;
                catch_up_owed = true;
                run_reconnect_callbacks_when_both_live();
            }
            return;
        }
        if (kind != "pmessage" || reply.elements.size() != 4) return;
        if (metrics::enabled()) store_metrics().wakeups.add();
        const auto& pattern = reply.elements[1].text;
        std::vector<Callback> targets;
        {
            std::lock_guard lock(subs_mutex);
            for (const auto& [p, cb] : patterns) {
                if (p == pattern) targets.push_back(cb);
            }
        }
        for (auto& cb : targets) cb(reply.elements[2].text, reply.elements[3].text);
    }
};

RedisClient::RedisClient(RedisUrl url, Options options) : impl_(std::make_shared<Impl>(std::move(url), options)) {
    asio::co_spawn(impl_->ioc, impl_->run_commands(), asio::detached);
    asio::co_spawn(impl_->ioc, impl_->run_subscriptions(), asio::detached);
    impl_->thread = std::thread([impl = impl_] { impl->ioc.run(); });
}

RedisClient::~RedisClient() {
    impl_->stopping.store(true);
    asio::post(impl_->ioc, [impl = impl_] {
        boost::system::error_code ignored;
        if (impl->socket) impl->socket->close(ignored);
        if (impl->sub_socket) impl->sub_socket->close(ignored);
        impl->sub_idle.cancel();
        impl->work.reset();
        impl->ioc.stop();
    });
    impl_->thread.join();
}

std::vector<RespValue> RedisClient::pipeline(const std::vector<std::vector<std::string>>& commands) {
    if (commands.empty()) return {};
    const bool counting = metrics::enabled();
    if (!impl_->up.load()) {
        if (counting) store_metrics().errors.add();
        throw StoreUnavailable("Redis is unreachable");
    }
    const auto started = std::chrono::steady_clock::now();
    auto request = std::make_shared<Request>();
    request->expected = commands.size();
    auto future = request->done.get_future();
    std::string bytes;
    for (const auto& c : commands) bytes += resp_command(c);
    asio::post(impl_->ioc, [impl = impl_, request, bytes = std::move(bytes)]() mutable {
        if (!impl->up.load() || !impl->socket) {
            request->done.set_exception(std::make_exception_ptr(StoreUnavailable("Redis is unreachable")));
            return;
        }
        impl->pending.push_back(std::move(request));
        impl->outgoing += bytes;
        impl->write_more();
    });
    if (future.wait_for(impl_->options.command_timeout) != std::future_status::ready) {
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

RespValue RedisClient::command(std::vector<std::string> args) {
    auto replies = pipeline({std::move(args)});
    return std::move(replies.front());
}

bool RedisClient::connected() const { return impl_->up.load(); }

bool RedisClient::wait_connected(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(impl_->up_mutex);
    return impl_->up_changed.wait_for(lock, timeout, [&] { return impl_->up.load(); });
}

void RedisClient::psubscribe(std::string pattern, Callback callback) {
    {
        std::lock_guard lock(impl_->subs_mutex);
        impl_->patterns.emplace_back(std::move(pattern), std::move(callback));
    }
    // Restart the subscription connection so it includes the new pattern (or wake the loop
    // parked because there were no patterns yet).
    asio::post(impl_->ioc, [impl = impl_] {
        boost::system::error_code ignored;
        if (impl->sub_socket) impl->sub_socket->cancel(ignored);
        impl->sub_idle.cancel();
    });
}

void RedisClient::on_reconnect(std::function<void()> callback) {
    std::lock_guard lock(impl_->subs_mutex);
    impl_->reconnected.push_back(std::move(callback));
}

}  // namespace mcp::detail
