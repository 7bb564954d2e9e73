#include "store/redis/redis_sentinel.hpp"

#include "util/log.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <charconv>

namespace mcp::detail {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
// What a sentinel sends is small; anything larger is not a sentinel speaking.
constexpr RespParser::Limits kSentinelReplies{.max_bulk = 64 * 1024, .max_elements = 1024, .max_depth = 4};
constexpr std::size_t kMaxHost = 255;
constexpr std::string_view kSwitchMaster = "+switch-master";
constexpr std::chrono::seconds kQuietSpell{3};

std::optional<RedisAddress> address_of(std::string_view host, std::string_view port) {
    if (host.empty() || host.size() > kMaxHost) return std::nullopt;
    for (const unsigned char c : host) {
        if (c <= ' ' || c == 0x7f) return std::nullopt;
    }
    unsigned number = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), number);
    if (ec != std::errc() || end != port.data() + port.size() || number == 0 || number > 65535) return std::nullopt;
    return RedisAddress{std::string(host), static_cast<std::uint16_t>(number)};
}

bool is_text(const RespValue& v) { return v.type == RespValue::Type::bulk || v.type == RespValue::Type::simple; }

}  // namespace

std::optional<RedisAddress> master_address(const RespValue& reply) {
    if (reply.type != RespValue::Type::array || reply.elements.size() != 2) return std::nullopt;
    const auto& host = reply.elements[0];
    const auto& port = reply.elements[1];
    if (!is_text(host) || !is_text(port)) return std::nullopt;
    return address_of(host.text, port.text);
}

std::optional<RedisAddress> switched_master(std::string_view message, std::string_view master_name) {
    std::string_view fields[5];
    for (std::size_t i = 0; i < 5; ++i) {
        const auto space = message.find(' ');
        if ((space == std::string_view::npos) != (i == 4)) return std::nullopt;
        fields[i] = message.substr(0, space);
        if (space != std::string_view::npos) message.remove_prefix(space + 1);
    }
    if (fields[0] != master_name) return std::nullopt;
    return address_of(fields[3], fields[4]);
}

bool says_master(const RespValue& role) {
    return role.type == RespValue::Type::array && !role.elements.empty() && is_text(role.elements[0]) &&
           role.elements[0].text == "master";
}

SentinelSet::SentinelSet(asio::io_context& ioc, RedisUrl::Sentinels sentinels, std::chrono::milliseconds timeout,
                         RedisTls tls)
    : ioc_(ioc), config_(std::move(sentinels)), timeout_(timeout), tls_(std::move(tls)) {}

RedisCommands SentinelSet::hello() const {
    RedisCommands commands;
    add_auth(commands, config_.username, config_.password);
    return commands;
}

asio::awaitable<std::optional<RedisAddress>> SentinelSet::ask(const RedisAddress& sentinel) {
    RedisStream s(ioc_, tls_);
    auto connected = co_await connect_to(s, sentinel, timeout_);
    if (!connected.tls_failure.empty()) tls_failure_ = connected.tls_failure;  // the client tells it
    if (!connected) {
        log().debug("sentinel {} is unreachable", sentinel.to_string());
        co_return std::nullopt;
    }
    auto commands = hello();
    commands.push_back({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", config_.master_name});
    RespParser parser(kSentinelReplies);
    const auto replies = co_await exchange(s, parser, commands, timeout_);
    s.close();
    if (!replies) {
        log().debug("sentinel {} did not answer", sentinel.to_string());
        co_return std::nullopt;
    }
    for (const auto& r : *replies) {
        if (r.is_error()) {
            log().warn("sentinel {} refused a command: {}", sentinel.to_string(), r.text);
            co_return std::nullopt;
        }
    }
    auto master = master_address(replies->back());
    if (!master) log().debug("sentinel {} knows no master named {}", sentinel.to_string(), config_.master_name);
    co_return master;
}

asio::awaitable<std::optional<RedisAddress>> SentinelSet::master() {
    const auto nodes = config_.nodes;  // watch() may reorder the list while this one waits
    for (const auto& node : nodes) {
        if (closed_) break;
        if (auto found = co_await ask(node)) {
            tls_failure_.clear();
            auto& list = config_.nodes;
            if (auto it = std::find(list.begin(), list.end(), node); it != list.end())
                std::rotate(list.begin(), it, it + 1);
            co_return found;
        }
    }
    co_return std::nullopt;
}

asio::awaitable<void> SentinelSet::listen(const RedisAddress& sentinel,
                                          const std::function<void(const RedisAddress&)>& switched) {
    watching_ = std::make_unique<RedisStream>(ioc_, tls_);
    auto& s = *watching_;
    if (!co_await connect_to(s, sentinel, timeout_)) co_return;
    auto commands = hello();
    commands.push_back({"SUBSCRIBE", std::string(kSwitchMaster)});
    RespParser parser(kSentinelReplies);
    const auto replies = co_await exchange(s, parser, commands, timeout_);
    if (!replies || std::any_of(replies->begin(), replies->end(), [](const auto& r) { return r.is_error(); }))
        co_return;
    log().debug("listening to sentinel {} for failovers of {}", sentinel.to_string(), config_.master_name);
    if (auto now = co_await master()) switched(*now);
    char buffer[4096];
    asio::steady_timer quiet(ioc_);
    bool pinged = false;
    while (!closed_) {
        try {
            while (auto message = parser.next()) {
                const auto& e = message->elements;
                if (message->type != RespValue::Type::array || e.size() != 3 || e[0].text != "message" ||
                    e[1].text != kSwitchMaster)
                    continue;
                if (auto moved = switched_master(e[2].text, config_.master_name)) {
                    log().info("Sentinel: master {} is now at {}", config_.master_name, moved->to_string());
                    switched(*moved);
                }
            }
        } catch (const std::runtime_error& e) {
            log().warn("sentinel {} broke the protocol: {}", sentinel.to_string(), e.what());
            co_return;
        }
        // A sentinel that hangs (a stopped process) keeps its connection open and tells nothing:
        // after a quiet spell it is asked for a PONG, and left when none comes.
        quiet.expires_after(kQuietSpell);
        auto read = co_await (s.async_read_some(asio::buffer(buffer), use_tuple) || quiet.async_wait(use_tuple));
        if (read.index() == 1) {
            if (std::exchange(pinged, true)) {
                log().warn("sentinel {} stopped answering; listening to another", sentinel.to_string());
                co_return;
            }
            const auto ping = resp_command({"PING"});
            auto [wec, n] = co_await asio::async_write(s, asio::buffer(ping), use_tuple);
            if (wec) co_return;
            continue;
        }
        auto [ec, got] = std::get<0>(read);
        if (ec) co_return;
        pinged = false;
        parser.feed(std::string_view(buffer, got));
    }
}

asio::awaitable<void> SentinelSet::watch(std::function<void(const RedisAddress&)> switched) {
    asio::steady_timer pause(ioc_);
    while (!closed_) {
        const auto nodes = config_.nodes;
        for (const auto& node : nodes) {
            if (closed_) co_return;
            co_await listen(node, switched);
            if (watching_) watching_->close();
        }
        // None of them would listen: try again in a while.
        pause.expires_after(std::chrono::seconds(1));
        co_await pause.async_wait(use_tuple);
    }
}

void SentinelSet::close() {
    closed_ = true;
    if (watching_) watching_->close();
}

}  // namespace mcp::detail
