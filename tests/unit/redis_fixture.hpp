#pragma once
// What the Redis tests share: a real redis-server per test, nodes (backends) on it, a raw
// connection to look at keys, and bounded waits.
#include "redis_server.hpp"
#include "store/backend.hpp"
#include "store/redis/redis_client.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace testing_support {

using Clock = std::chrono::steady_clock;

// Polls `pred` until it holds or `within` passed; every wait of these tests is bounded by one.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds within = std::chrono::seconds(5)) {
    const auto until = Clock::now() + within;
    while (!pred()) {
        if (Clock::now() >= until) return pred();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

// Runs `call`: true when it returned or threw StoreUnavailable, false when it threw anything else.
template <class F>
bool only_store_unavailable(F call) {
    try {
        call();
        return true;
    } catch (const mcp::StoreUnavailable&) {
        return true;
    } catch (...) {
        return false;
    }
}

template <class F>
bool throws_store_unavailable(F call) {
    try {
        call();
    } catch (const mcp::StoreUnavailable&) {
        return true;
    }
    return false;
}

// Collects the payloads a node bus handler received.
class Inbox {
public:
    std::function<void(std::string_view)> handler() {
        return [this](std::string_view payload) {
            std::lock_guard lock(mutex_);
            got_.emplace_back(payload);
        };
    }
    std::vector<std::string> got() {
        std::lock_guard lock(mutex_);
        return got_;
    }
    std::size_t size() { return got().size(); }

private:
    std::mutex mutex_;
    std::vector<std::string> got_;
};

inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

class RedisTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(raw_.wait_connected(std::chrono::seconds(5))); }

    // A node, once it reaches Redis: a freshly started redis-server may still refuse the first
    // connection, and a test must not begin with its node still retrying.
    std::shared_ptr<mcp::detail::Backend> node() {
        auto backend = mcp::detail::make_backend(redis_.url());
        EXPECT_NE(backend->bus(), nullptr);
        EXPECT_TRUE(
            eventually([&] { return !throws_store_unavailable([&] { backend->bus()->publish("connected?", ""); }); }));
        return backend;
    }

    // Waits until `n` nodes listen to each of `topics` on the signal bus (their channel on one
    // Redis), so what is published from now on reaches them. A node subscribes to a topic when it
    // first has a handler for it, and remakes its subscription connection then.
    void wait_listening(std::size_t n, const std::vector<std::string>& topics = {"mailbox"}) {
        auto listening = [&] {
            for (const auto& topic : topics) {
                const auto reply = raw({"PUBSUB", "NUMSUB", "mcp:bus:" + topic + ":{0}"});
                if (reply.elements.size() != 2 || reply.elements[1].integer < static_cast<std::int64_t>(n))
                    return false;
            }
            return true;
        };
        ASSERT_TRUE(eventually(listening)) << "nodes did not subscribe to the bus";
    }

    // A command on a connection of the test's own; after a restart it waits (bounded) for the
    // connection to come back.
    mcp::detail::RespValue raw(std::vector<std::string> args) {
        const auto until = Clock::now() + std::chrono::seconds(5);
        while (true) {
            try {
                return raw_.command(args);
            } catch (const mcp::StoreUnavailable&) {
                if (Clock::now() >= until) throw;
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        }
    }
    std::int64_t pttl(const std::string& key) { return raw({"PTTL", key}).integer; }
    bool key_exists(const std::string& key) { return raw({"EXISTS", key}).integer == 1; }
    std::vector<std::string> keys(const std::string& pattern) {
        std::vector<std::string> out;
        for (auto& e : raw({"KEYS", pattern}).elements) out.push_back(std::move(e.text));
        return sorted(std::move(out));
    }
    std::vector<std::string> members(const std::string& key) {
        std::vector<std::string> out;
        for (auto& e : raw({"SMEMBERS", key}).elements) out.push_back(std::move(e.text));
        return sorted(std::move(out));
    }
    std::int64_t revision(const std::string& id) {
        const auto reply = raw({"HGET", "mcp:s:{" + id + "}", "rev"});
        return reply.is_nil() ? -1 : std::stoll(reply.text);
    }

    RedisServer redis_;
    // Generous: it moves the multi-megabyte values of the hostile records, also under sanitizers.
    mcp::detail::RedisClient raw_{mcp::detail::RedisUrl::parse(redis_.url()),
                                  {std::chrono::milliseconds(1000), std::chrono::milliseconds(30'000)}};
};

}  // namespace testing_support
