// The RESP parser against hostile bytes, and the Redis client against a real redis-server:
// commands, pipelines, pub/sub, failing fast while Redis is down, reconnecting when it is back.
#include "redis_server.hpp"
#include "store/redis/redis_client.hpp"
#include "store/redis/resp.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace mcp::detail;
using testing_support::RedisServer;

TEST(Resp, EncodesCommandsAsBulkArrays) {
    EXPECT_EQ(resp_command({"SET", "k", "a b"}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\na b\r\n");
}

TEST(Resp, ParsesEveryTypeAcrossArbitrarySplits) {
    const std::string wire = "+OK\r\n-ERR bad\r\n:42\r\n$5\r\nhe\r\no\r\n$-1\r\n*2\r\n$1\r\na\r\n*1\r\n:7\r\n*-1\r\n";
    for (std::size_t split = 0; split <= wire.size(); ++split) {
        RespParser p;
        p.feed(wire.substr(0, split));
        std::vector<RespValue> got;
        while (auto v = p.next()) got.push_back(*v);
        p.feed(wire.substr(split));
        while (auto v = p.next()) got.push_back(*v);
        ASSERT_EQ(got.size(), 7u) << split;
        EXPECT_EQ(got[0].text, "OK");
        EXPECT_TRUE(got[1].is_error());
        EXPECT_EQ(got[2].integer, 42);
        EXPECT_EQ(got[3].text, "he\r\no");
        EXPECT_TRUE(got[4].is_nil());
        EXPECT_EQ(got[5].elements[1].elements[0].integer, 7);
        EXPECT_TRUE(got[6].is_nil());
    }
}

TEST(Resp, RefusesHostileReplies) {
    auto fails = [](const std::string& wire, RespParser::Limits limits = {}) {
        RespParser p(limits);
        p.feed(wire);
        try {
            while (p.next()) {}
        } catch (const std::runtime_error&) {
            return true;
        }
        return false;
    };
    EXPECT_TRUE(fails("?what\r\n"));
    EXPECT_TRUE(fails(":12x\r\n"));
    EXPECT_TRUE(fails("$99999999999\r\n"));
    EXPECT_TRUE(fails("$-5\r\n"));
    EXPECT_TRUE(fails("$3\r\nabcXY"));
    EXPECT_TRUE(fails("*99999999\r\n"));
    EXPECT_FALSE(fails("*3\r\n$1\r\na\r\n"));  // incomplete, not invalid
    std::string deep;
    for (int i = 0; i < 20; ++i) deep += "*1\r\n";
    EXPECT_TRUE(fails(deep + ":1\r\n"));
    EXPECT_TRUE(fails(std::string(70 * 1024, 'a').insert(0, "+")));  // a line that never ends
}

TEST(RedisUrl, Parses) {
    auto u = RedisUrl::parse("redis://:s3cret@db.internal:6380/2");
    EXPECT_EQ(u.host, "db.internal");
    EXPECT_EQ(u.port, 6380);
    EXPECT_EQ(u.db, 2);
    EXPECT_EQ(u.password, "s3cret");
    EXPECT_EQ(u.username, "");
    auto acl = RedisUrl::parse("redis://app:pw@h");
    EXPECT_EQ(acl.username, "app");
    EXPECT_EQ(acl.password, "pw");
    EXPECT_EQ(RedisUrl::parse("redis://bare@h").password, "bare");
    EXPECT_EQ(RedisUrl::parse("redis://127.0.0.1").port, 6379);
    EXPECT_EQ(RedisUrl::parse("redis://[::1]:7000/0").host, "::1");
    for (const char* bad : {"http://x", "redis://h:0", "redis://h:99999", "redis://h/x", "redis://h:12a"}) {
        EXPECT_THROW(RedisUrl::parse(bad), std::invalid_argument) << bad;
    }
    for (const char* leaks : {"redis://:hunter2@h:bad", "redis://:hunter2%zz@h", "redis://:hunter2%4@h"}) {
        try {
            RedisUrl::parse(leaks);
            ADD_FAILURE() << "accepted a bad URL";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos);
        }
    }
    // Reserved characters in user names and passwords come percent-encoded.
    auto encoded = RedisUrl::parse("redis://a%3Ab:p%40ss%3aw%2Fd%25@h:7001");
    EXPECT_EQ(encoded.username, "a:b");
    EXPECT_EQ(encoded.password, "p@ss:w/d%");
    EXPECT_EQ(encoded.port, 7001);
    EXPECT_EQ(RedisUrl::parse("redis://:a@b@h").password, "a@b");  // the last '@' ends the password
}

TEST(RedisClient, CommandsPipelinesAndConcurrency) {
    RedisServer redis;
    RedisClient client(RedisUrl::parse(redis.url(3)), {});
    ASSERT_TRUE(client.wait_connected(std::chrono::seconds(5)));
    EXPECT_EQ(client.command({"SET", "k", "v"}).text, "OK");
    EXPECT_EQ(client.command({"GET", "k"}).text, "v");
    EXPECT_TRUE(client.command({"GET", "missing"}).is_nil());
    EXPECT_TRUE(client.command({"NOSUCHCOMMAND"}).is_error());
    auto replies = client.pipeline({{"INCR", "n"}, {"INCR", "n"}, {"GET", "n"}});
    EXPECT_EQ(replies[2].text, "2");
    EXPECT_EQ(redis.cli("-n 3 GET k"), "v");  // SELECT 3 took effect

    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    threads.reserve(8);
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 200; ++i) {
                std::string key = "list-";
                key += std::to_string(t);
                client.command({"RPUSH", key, std::to_string(i)});
                if (client.command({"LLEN", key}).integer == i + 1) ++ok;
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(ok.load(), 1600);  // replies matched to their callers in order
}

TEST(RedisClient, AuthenticatesAsAnAclUser) {
    RedisServer redis;
    ASSERT_NE(redis.cli("ACL SETUSER app on '>pw' '~*' '&*' '+@all'").find("OK"), std::string::npos);
    const std::string address = "127.0.0.1:" + std::to_string(redis.port()) + "/0";
    RedisClient app(RedisUrl::parse("redis://app:pw@" + address), {});
    ASSERT_TRUE(app.wait_connected(std::chrono::seconds(5)));
    EXPECT_EQ(app.command({"ACL", "WHOAMI"}).text, "app");
    // A password with reserved characters, percent-encoded in the URL.
    ASSERT_NE(redis.cli("ACL SETUSER odd on '>p@ss:w/d%' '~*' '&*' '+@all'").find("OK"), std::string::npos);
    RedisClient odd(RedisUrl::parse("redis://odd:p%40ss%3Aw%2Fd%25@" + address), {});
    ASSERT_TRUE(odd.wait_connected(std::chrono::seconds(5)));
    EXPECT_EQ(odd.command({"ACL", "WHOAMI"}).text, "odd");
    RedisClient wrong(RedisUrl::parse("redis://app:nope@" + address), {});
    EXPECT_FALSE(wrong.wait_connected(std::chrono::milliseconds(500)));
    EXPECT_THROW(wrong.command({"PING"}), StoreUnavailable);
}

TEST(RedisClient, PubSubAndReconnection) {
    RedisServer redis;
    // The callbacks' state outlives the client: a connection this test cuts last may come back, and
    // run on_reconnect, after its last check.
    std::mutex m;
    std::vector<std::string> got;
    std::atomic<int> resubscribed{0};
    std::atomic<int> ran_without_commands{0};  // catching up needs the command connection
    RedisClient client(RedisUrl::parse(redis.url()), {std::chrono::milliseconds(500), std::chrono::milliseconds(500)});
    ASSERT_TRUE(client.wait_connected(std::chrono::seconds(5)));
    client.on_reconnect([&] {
        if (!client.connected()) ++ran_without_commands;
        ++resubscribed;
    });
    client.subscribe({"events:a", "events:b"}, [&](std::string_view channel, std::string_view message) {
        std::lock_guard lock(m);
        got.push_back(std::string(channel) + "=" + std::string(message));
    });
    for (int i = 0; i < 300 && resubscribed.load() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_GT(resubscribed.load(), 0);
    client.command({"PUBLISH", "events:a", "1"});
    client.command({"PUBLISH", "other", "x"});
    for (int i = 0; i < 300; ++i) {
        std::lock_guard lock(m);
        if (!got.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    {
        std::lock_guard lock(m);
        EXPECT_EQ(got, (std::vector<std::string>{"events:a=1"}));
    }

    // Down: calls fail at once instead of waiting.
    redis.stop();
    for (int i = 0; i < 300 && client.connected(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const auto started = std::chrono::steady_clock::now();
    EXPECT_THROW(client.command({"PING"}), StoreUnavailable);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(100));

    // Back: the client reconnects and resubscribes by itself.
    const int before = resubscribed.load();
    redis.start();
    ASSERT_TRUE(client.wait_connected(std::chrono::seconds(10)));
    EXPECT_EQ(client.command({"PING"}).text, "PONG");
    for (int i = 0; i < 500 && resubscribed.load() == before; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GT(resubscribed.load(), before);
    client.command({"PUBLISH", "events:b", "2"});
    for (int i = 0; i < 300; ++i) {
        std::lock_guard lock(m);
        if (got.size() == 2) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    {
        std::lock_guard lock(m);
        ASSERT_EQ(got.size(), 2u);
        EXPECT_EQ(got[1], "events:b=2");
    }

    // Only the command connection lost: what failed meanwhile is caught up, so the callbacks run
    // again once it is back. Only the subscription lost: they run once it is confirmed.
    RedisClient admin(RedisUrl::parse(redis.url()), {});
    ASSERT_TRUE(admin.wait_connected(std::chrono::seconds(5)));
    for (const char* type : {"normal", "pubsub"}) {
        const int was = resubscribed.load();
        admin.command({"CLIENT", "KILL", "TYPE", type, "SKIPME", "yes"});
        for (int i = 0; i < 500 && resubscribed.load() == was; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        EXPECT_GT(resubscribed.load(), was) << type;
    }
    // The subscription comes back while the command connection cannot stay up (it retries every
    // 50 ms and is cut at once; the subscription is cut half-way between two retries): the
    // callbacks wait for it.
    const int was = resubscribed.load();
    const auto cutting = std::chrono::steady_clock::now();
    bool subscription_cut = false;
    while (std::chrono::steady_clock::now() < cutting + std::chrono::milliseconds(500)) {
        admin.command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"});
        if (!subscription_cut && std::chrono::steady_clock::now() > cutting + std::chrono::milliseconds(25)) {
            admin.command({"CLIENT", "KILL", "TYPE", "pubsub"});
            subscription_cut = true;
        }
    }
    for (int i = 0; i < 500 && resubscribed.load() == was; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GT(resubscribed.load(), was);
    EXPECT_EQ(ran_without_commands.load(), 0);
}

namespace {

// The kernel's timer of each established connection to `port` on this machine ("tr" in
// /proc/net/tcp: 0 none, 1 retransmission, 2 keepalive).
std::vector<int> timers_of_connections_to(std::uint16_t port) {
    std::vector<int> timers;
    std::ifstream table("/proc/net/tcp");
    std::string line;
    std::getline(table, line);  // the header
    while (std::getline(table, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state, queues, timer;
        fields >> slot >> local >> remote >> state >> queues >> timer;
        const auto colon = remote.find(':');
        if (colon == std::string::npos || state != "01") continue;
        if (std::stoul(remote.substr(colon + 1), nullptr, 16) != port) continue;
        timers.push_back(std::stoi(timer.substr(0, timer.find(':')), nullptr, 16));
    }
    return timers;
}

}  // namespace

TEST(RedisClient, BothConnectionsProbeASilentPeer) {
    // A Redis host that vanished sends nothing: keepalive probes are what end the connections.
    RedisServer redis;
    RedisClient client(RedisUrl::parse(redis.url()), {});
    ASSERT_TRUE(client.wait_connected(std::chrono::seconds(5)));
    std::atomic<bool> subscribed{false};
    client.on_reconnect([&] { subscribed = true; });
    client.subscribe({"quiet"}, [](std::string_view, std::string_view) {});
    for (int i = 0; i < 300 && !subscribed.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_TRUE(subscribed.load());
    std::vector<int> timers;
    for (int i = 0; i < 100; ++i) {  // a timer may still be a retransmission one for a moment
        timers = timers_of_connections_to(redis.port());
        if (timers == std::vector<int>{2, 2}) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(timers, (std::vector<int>{2, 2})) << "the command and subscription connections, both probing";
}
