// redis-sentinel:// URLs, the sentinels' replies read with suspicion, and the client against real
// redis-servers whose master a fake sentinel names: it goes where the sentinel says but never
// writes to a replica, leaves a master that turned replica (READONLY) or that a failover replaced
// (+switch-master, even while the old one hangs), skips sentinels that answer nonsense or nothing,
// logs in to both kinds of server, and waits for a replica on the writes it is asked to.
// The failover with real sentinels is tests/e2e/sentinel.test.mjs.
#include "fake_sentinel.hpp"
#include "redis_server.hpp"
#include "store/backend.hpp"
#include "store/redis/redis_client.hpp"
#include "store/redis/redis_sentinel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

using namespace mcp::detail;
using testing_support::FakeSentinel;
using testing_support::RedisServer;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;

// Polls `pred` until it holds or `within` passed.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds within = 10s) {
    const auto until = Clock::now() + within;
    while (!pred()) {
        if (Clock::now() >= until) return pred();
        std::this_thread::sleep_for(10ms);
    }
    return true;
}

RespValue reply_of(const std::string& wire) {
    RespParser parser;
    parser.feed(wire);
    auto value = parser.next();
    EXPECT_TRUE(value.has_value()) << wire;
    return value.value_or(RespValue{});
}

std::string sentinel_url(const std::vector<const FakeSentinel*>& sentinels, const std::string& tail = "mymaster") {
    std::string url = "redis-sentinel://";
    for (const auto* s : sentinels) {
        if (s != sentinels.front()) url += ',';
        url += s->address();
    }
    url += '/';
    url += tail;
    return url;
}

RedisClient::Options quick() { return {.connect_timeout = 300ms, .command_timeout = 1000ms}; }

// A SET through `client` that Redis took, retried (bounded) while the client finds its master.
bool set_eventually(RedisClient& client, const std::string& key, const std::string& value) {
    return eventually([&] {
        try {
            return client.command({"SET", key, value}).text == "OK";
        } catch (const StoreUnavailable&) {
            return false;
        }
    });
}

// How many times `redis` ran `command`, from INFO commandstats.
long calls_of(const RedisServer& redis, const std::string& command) {
    const auto stats = redis.cli("INFO commandstats");
    const auto field = "cmdstat_" + command + ":calls=";
    const auto at = stats.find(field);
    return at == std::string::npos ? 0 : std::stol(stats.substr(at + field.size()));
}

// The connected_clients line of INFO clients.
std::string connected_clients(const RedisServer& redis) {
    const auto info = redis.cli("INFO clients");
    const auto at = info.find("connected_clients:");
    return at == std::string::npos ? info : info.substr(at, info.find('\r', at) - at);
}

}  // namespace

TEST(RedisSentinelUrl, Parses) {
    auto u = RedisUrl::parse("redis-sentinel://10.0.0.1:26380,sentinel-b,[::1]:26381/mymaster/3");
    ASSERT_TRUE(u.sentinels.has_value());
    EXPECT_EQ(u.sentinels->nodes,
              (std::vector<RedisAddress>{{"10.0.0.1", 26380}, {"sentinel-b", 26379}, {"::1", 26381}}));
    EXPECT_EQ(u.sentinels->master_name, "mymaster");
    EXPECT_EQ(u.db, 3);
    EXPECT_EQ(u.password, "");
    EXPECT_EQ(u.sentinels->password, "");

    auto auth = RedisUrl::parse(
        "redis-sentinel://app:p%40ss@s1:1,s2:2/my%2Fmaster?sentinel-user=watch&sentinel-password=s%26cret");
    EXPECT_EQ(auth.username, "app");
    EXPECT_EQ(auth.password, "p@ss");
    EXPECT_EQ(auth.sentinels->username, "watch");
    EXPECT_EQ(auth.sentinels->password, "s&cret");
    EXPECT_EQ(auth.sentinels->master_name, "my/master");
    EXPECT_EQ(auth.db, 0);
    EXPECT_EQ(RedisUrl::parse("redis-sentinel://:pw@h/m?sentinel-password=x").password, "pw");
    EXPECT_FALSE(RedisUrl::parse("redis://h:1/2").sentinels.has_value());
    EXPECT_EQ(RedisAddress({"::1", 7}).to_string(), "[::1]:7");
    EXPECT_NO_THROW(check_store_url("redis-sentinel://127.0.0.1:26379/mymaster/0"));
}

TEST(RedisSentinelUrl, RefusesWhatIsNotOne) {
    std::string many = "redis-sentinel://";
    for (int i = 0; i < 33; ++i) {
        many += 'h';
        many += std::to_string(i);
        many += ":1,";
    }
    many.back() = '/';
    many += 'm';
    std::string commas = "redis-sentinel://" + std::string(1 << 20, ',') + "/m";
    for (const std::string& bad : {std::string("redis-sentinel://h:1"),
                                   std::string("redis-sentinel://h:1/"),
                                   std::string("redis-sentinel://h:1//0"),
                                   std::string("redis-sentinel:///m"),
                                   std::string("redis-sentinel://h1,,h2/m"),
                                   std::string("redis-sentinel://h1,/m"),
                                   std::string("redis-sentinel://h:0/m"),
                                   std::string("redis-sentinel://h:99999/m"),
                                   std::string("redis-sentinel://h:1/m/x"),
                                   std::string("redis-sentinel://h:1/m/-1"),
                                   std::string("redis-sentinel://h:1/m%20x"),
                                   std::string("redis-sentinel://h:1/m%0A"),
                                   std::string("redis-sentinel://h:1/") + std::string(129, 'm'),
                                   std::string("redis-sentinel://h:1/m?sentinel-pass=x"),
                                   std::string("redis-sentinel://h:1/m?x"),
                                   std::string("redis-sentinel://h[1/m"),
                                   std::string("redis://a,b:1/0"),
                                   std::string("redis+sentinel://h:1/m"),
                                   std::string("sentinel://h:1/m"),
                                   many,
                                   commas}) {
        EXPECT_THROW(RedisUrl::parse(bad), std::invalid_argument) << bad.substr(0, 80);
        EXPECT_THROW(check_store_url(bad), std::invalid_argument) << bad.substr(0, 80);
    }
    // Passwords never appear in the message, wherever they are.
    for (const char* leaks : {"redis-sentinel://:hunter2%zz@h/m", "redis-sentinel://h/m?sentinel-password=hunter2%4",
                              "redis-sentinel://h/m?sentinel-password=hunter2&bogus=1", "ftp://:hunter2@h",
                              "ftp://h?sentinel-password=hunter2"}) {
        try {
            check_store_url(leaks);
            ADD_FAILURE() << "accepted a bad URL";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
        }
    }
}

TEST(RedisSentinelReplies, MasterAddressIsReadWithSuspicion) {
    auto a = master_address(reply_of("*2\r\n$9\r\n127.0.0.1\r\n$4\r\n6380\r\n"));
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(*a, (RedisAddress{"127.0.0.1", 6380}));
    for (const std::string& bad :
         {std::string("$-1\r\n"), std::string("*-1\r\n"), std::string("-IDONTKNOW no such master\r\n"),
          std::string("*1\r\n$1\r\nh\r\n"), std::string("*3\r\n$1\r\nh\r\n$1\r\n1\r\n$1\r\n1\r\n"),
          std::string("*2\r\n$1\r\nh\r\n:6379\r\n"), std::string("*2\r\n$0\r\n\r\n$4\r\n6379\r\n"),
          std::string("*2\r\n$3\r\na b\r\n$4\r\n6379\r\n"), std::string("*2\r\n$1\r\nh\r\n$1\r\n0\r\n"),
          std::string("*2\r\n$1\r\nh\r\n$5\r\n65536\r\n"), std::string("*2\r\n$1\r\nh\r\n$3\r\n-12\r\n"),
          std::string("*2\r\n$1\r\nh\r\n$4\r\n63a9\r\n"), std::string("*2\r\n*1\r\n$1\r\nh\r\n$4\r\n6379\r\n"),
          "*2\r\n$300\r\n" + std::string(300, 'h') + "\r\n$4\r\n6379\r\n", std::string(":1\r\n"),
          std::string("+OK\r\n")}) {
        EXPECT_FALSE(master_address(reply_of(bad)).has_value()) << bad;
    }
}

TEST(RedisSentinelReplies, SwitchMasterMessagesAboutOthersOrMalformedAreIgnored) {
    auto moved = switched_master("mymaster 127.0.0.1 6379 127.0.0.2 6380", "mymaster");
    ASSERT_TRUE(moved.has_value());
    EXPECT_EQ(*moved, (RedisAddress{"127.0.0.2", 6380}));
    for (const char* bad : {"other 127.0.0.1 6379 127.0.0.2 6380", "mymaster 127.0.0.1 6379 127.0.0.2",
                            "mymaster 127.0.0.1 6379 127.0.0.2 6380 extra", "mymaster 127.0.0.1 6379 127.0.0.2 0",
                            "mymaster 127.0.0.1 6379 127.0.0.2 x", "mymaster 127.0.0.1 6379 127.0.0.2 6380 ",
                            "mymaster  127.0.0.1 6379 127.0.0.2 6380", "", "mymaster", "mymasterx a 1 b 2"}) {
        EXPECT_FALSE(switched_master(bad, "mymaster").has_value()) << bad;
    }
}

TEST(RedisSentinelReplies, OnlyAMasterRoleIsWritable) {
    EXPECT_TRUE(says_master(reply_of("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n")));
    for (const char* other :
         {"*5\r\n$5\r\nslave\r\n$1\r\nh\r\n:1\r\n$9\r\nconnected\r\n:0\r\n", "*2\r\n$8\r\nsentinel\r\n*0\r\n", "*0\r\n",
          "$6\r\nmaster\r\n", "-NOPERM no\r\n", "*1\r\n:1\r\n"}) {
        EXPECT_FALSE(says_master(reply_of(other))) << other;
    }
}

TEST(RedisSentinel, ConnectsToTheMasterItNames) {
    RedisServer master;
    FakeSentinel sentinel;
    sentinel.name_master(master.port());
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel}, "mymaster/2")), quick());
    ASSERT_TRUE(client.wait_connected(5s));
    EXPECT_EQ(client.command({"SET", "k", "v"}).text, "OK");
    EXPECT_EQ(master.cli("-n 2 GET k"), "v");
    EXPECT_GE(sentinel.questions(), 2u) << "both connections asked where the master is";
    EXPECT_TRUE(eventually([&] { return sentinel.subscribers() == 1; })) << "it listens for failovers";
}

TEST(RedisSentinel, NeverWritesToAReplica) {
    RedisServer master;
    RedisServer replica;
    ASSERT_EQ(replica.cli("REPLICAOF 127.0.0.1 " + std::to_string(master.port())), "OK");
    FakeSentinel sentinel;
    sentinel.name_master(replica.port());  // stale, or wrong
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel})), quick());
    EXPECT_FALSE(client.wait_connected(1500ms));
    EXPECT_GE(sentinel.questions(), 2u) << "it asked again rather than stay";
    EXPECT_THROW(client.command({"SET", "k", "v"}), StoreUnavailable);

    sentinel.name_master(master.port());
    ASSERT_TRUE(set_eventually(client, "k", "v"));
    EXPECT_EQ(master.cli("GET k"), "v");
}

TEST(RedisSentinel, AServerThatNeverAnswersOrRefusesIsNotWaitedFor) {
    RedisServer master;
    FakeSentinel mute;  // accepts connections, never answers: a stopped process
    mute.go_silent();
    FakeSentinel sentinel;
    sentinel.name_master(mute.port());
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel})), quick());
    EXPECT_FALSE(client.wait_connected(1500ms));
    EXPECT_GE(sentinel.questions(), 2u) << "the setup timed out and the sentinel was asked again";

    sentinel.answer("*2\r\n$9\r\n127.0.0.1\r\n$1\r\n1\r\n");  // nothing listens on port 1
    const auto asked = sentinel.questions();
    EXPECT_FALSE(client.wait_connected(1000ms));
    EXPECT_GT(sentinel.questions(), asked) << "a refused connection is tried again later";

    sentinel.name_master(master.port());
    ASSERT_TRUE(set_eventually(client, "k", "v"));
    EXPECT_EQ(master.cli("GET k"), "v");
}

TEST(RedisSentinel, AMasterTurnedReplicaAnswersReadonlyAndIsLeft) {
    RedisServer first;
    RedisServer second;
    FakeSentinel sentinel;
    sentinel.name_master(first.port());
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel})), quick());
    ASSERT_TRUE(client.wait_connected(5s));
    ASSERT_EQ(client.command({"SET", "before", "1"}).text, "OK");

    // A failover the client did not hear of: the old master is made a replica (its clients stay
    // connected) and the sentinel names the other one.
    const auto connections = connected_clients(first);
    ASSERT_EQ(first.cli("REPLICAOF 127.0.0.1 " + std::to_string(second.port())), "OK");
    sentinel.name_master(second.port());
    EXPECT_EQ(connected_clients(first), connections) << "REPLICAOF kept the client's connection";
    const auto refused = client.command({"SET", "k", "v"});
    EXPECT_TRUE(refused.is_error());
    EXPECT_TRUE(refused.text.starts_with("READONLY")) << refused.text;
    ASSERT_TRUE(set_eventually(client, "k", "v"));
    EXPECT_EQ(second.cli("GET k"), "v");
    EXPECT_NE(second.cli("CLIENT LIST").find("cmd=set"), std::string::npos) << "the client is on the new master";
}

TEST(RedisSentinel, FollowsAFailoverAwayFromAHungMaster) {
    RedisServer old_master;
    RedisServer new_master;
    FakeSentinel sentinel;
    sentinel.name_master(old_master.port());
    std::atomic<int> caught_up{0};  // outlives the client: on_reconnect runs for every connection back
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel})), quick());
    client.on_reconnect([&] { ++caught_up; });
    client.subscribe({"bus"}, [](std::string_view, std::string_view) {});
    ASSERT_TRUE(client.wait_connected(5s));
    ASSERT_TRUE(eventually([&] { return caught_up.load() > 0 && sentinel.subscribers() == 1; }));

    // The old master hangs: its connections stay open and nothing ends them but the news.
    old_master.pause();
    sentinel.name_master(new_master.port());
    const int before = caught_up.load();
    sentinel.announce_switch("mymaster 127.0.0.1 " + std::to_string(old_master.port()) + " 127.0.0.1 " +
                             std::to_string(new_master.port()));
    EXPECT_TRUE(set_eventually(client, "k", "moved"));
    EXPECT_EQ(new_master.cli("GET k"), "moved");
    EXPECT_TRUE(eventually([&] { return caught_up.load() > before; })) << "callers catch up on the new master";
    EXPECT_TRUE(eventually([&] { return new_master.cli("CLIENT LIST").find("cmd=subscribe") != std::string::npos; }))
        << "the subscription moved too";
    old_master.resume();
}

TEST(RedisSentinel, LeavesASentinelThatStopsAnsweringAndHearsTheNextOne) {
    RedisServer old_master;
    RedisServer new_master;
    FakeSentinel first;
    FakeSentinel second;
    first.name_master(old_master.port());
    second.name_master(old_master.port());
    RedisClient client(RedisUrl::parse(sentinel_url({&first, &second})), quick());
    ASSERT_TRUE(client.wait_connected(5s));
    ASSERT_TRUE(eventually([&] { return first.subscribers() == 1; }));

    first.go_silent();  // hangs with the subscription open: no news would ever come from it
    ASSERT_TRUE(eventually([&] { return second.subscribers() == 1; }, 20s)) << "it listens to the next sentinel";
    second.name_master(new_master.port());
    second.announce_switch("mymaster 127.0.0.1 " + std::to_string(old_master.port()) + " 127.0.0.1 " +
                           std::to_string(new_master.port()));
    // The old master still answers: writes reach the new one once the client heard the news.
    EXPECT_TRUE(eventually([&] {
        set_eventually(client, "k", "moved");
        return new_master.cli("GET k") == "moved";
    }));
}

TEST(RedisSentinel, SkipsSentinelsThatAnswerNonsenseOrNothing) {
    RedisServer master;
    std::vector<std::unique_ptr<FakeSentinel>> bad;
    for (const std::string& reply :
         {std::string(), std::string("$-1\r\n"), std::string("-ERR no\r\n"), std::string("*2\r\n:1\r\n:2\r\n"),
          std::string("*2\r\n$9\r\n127.0.0.1\r\n$1\r\n0\r\n"), "$100000\r\n" + std::string(100000, 'x') + "\r\n",
          std::string("?garbage\r\n"), std::string("*100000000\r\n")}) {
        bad.push_back(std::make_unique<FakeSentinel>());
        bad.back()->answer(reply);
    }
    std::vector<const FakeSentinel*> order;
    for (const auto& b : bad) order.push_back(b.get());
    {
        RedisClient lost(RedisUrl::parse(sentinel_url(order)), quick());
        EXPECT_FALSE(lost.wait_connected(1s));
        EXPECT_THROW(lost.command({"PING"}), StoreUnavailable);
    }
    FakeSentinel good;
    good.name_master(master.port());
    order.push_back(&good);
    RedisClient client(RedisUrl::parse(sentinel_url(order)), quick());
    ASSERT_TRUE(set_eventually(client, "k", "v"));
    EXPECT_EQ(master.cli("GET k"), "v");
    for (const auto& b : bad) EXPECT_GE(b->questions(), 1u) << "each was asked before the good one";
}

TEST(RedisSentinel, LogsInToTheSentinelsAndTheMaster) {
    RedisServer master;
    ASSERT_NE(master.cli("ACL SETUSER app on '>p@ss' '~*' '&*' '+@all'").find("OK"), std::string::npos);
    FakeSentinel sentinel;
    sentinel.name_master(master.port());
    sentinel.require_auth({"watcher", "s&cret"});
    const auto tail = "mymaster?sentinel-user=watcher&sentinel-password=s%26cret";
    RedisClient client(RedisUrl::parse("redis-sentinel://app:p%40ss@" + sentinel.address() + "/" + tail), quick());
    ASSERT_TRUE(client.wait_connected(5s));
    EXPECT_EQ(client.command({"ACL", "WHOAMI"}).text, "app");
    ASSERT_FALSE(sentinel.auths().empty());
    for (const auto& auth : sentinel.auths()) EXPECT_EQ(auth, (std::vector<std::string>{"watcher", "s&cret"}));

    FakeSentinel strict;
    strict.name_master(master.port());
    strict.require_auth({"watcher", "other"});
    RedisClient refused(RedisUrl::parse("redis-sentinel://app:p%40ss@" + strict.address() + "/" + tail), quick());
    EXPECT_FALSE(refused.wait_connected(1s)) << "a sentinel that refuses the login names no master";
}

TEST(RedisSentinel, ReplicatedWritesWaitForAReplicaUnlessNoneAnswers) {
    RedisServer master;
    RedisServer replica;
    ASSERT_EQ(master.cli("CONFIG SET repl-diskless-sync-delay 0"), "OK");  // the first sync at once, not after 5 s
    ASSERT_EQ(replica.cli("REPLICAOF 127.0.0.1 " + std::to_string(master.port())), "OK");
    // Online: past its first full sync, the replica acknowledges what it receives.
    ASSERT_TRUE(eventually([&] { return master.cli("INFO replication").find("state=online") != std::string::npos; }));
    FakeSentinel sentinel;
    sentinel.name_master(master.port());
    // Generous, so that a replica on a busy machine is not taken for a missing one.
    const RedisClient::Options options{.connect_timeout = 300ms, .command_timeout = 3000ms, .replica_wait = 1000ms};
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel})), options);
    ASSERT_TRUE(client.wait_connected(5s));

    auto replies = client.pipeline_replicated({{"SET", "a", "1"}, {"SET", "b", "2"}});
    ASSERT_EQ(replies.size(), 2u) << "the WAIT's own reply is not the caller's";
    EXPECT_EQ(replies[1].text, "OK");
    EXPECT_EQ(calls_of(master, "wait"), 1);
    EXPECT_EQ(replica.cli("GET b"), "2") << "on the replica once it returned";
    client.pipeline({{"SET", "c", "3"}});
    EXPECT_EQ(calls_of(master, "wait"), 1) << "plain pipelines do not wait";

    // The replica hangs: one write waits out the second and goes through, the next ones do not wait.
    replica.pause();
    EXPECT_EQ(client.pipeline_replicated({{"SET", "d", "4"}}).front().text, "OK");
    EXPECT_EQ(calls_of(master, "wait"), 2);
    EXPECT_EQ(client.pipeline_replicated({{"SET", "e", "5"}}).front().text, "OK");
    EXPECT_EQ(calls_of(master, "wait"), 2);
    replica.resume();

    RedisClient plain(RedisUrl::parse("redis://127.0.0.1:" + std::to_string(master.port())), quick());
    ASSERT_TRUE(plain.wait_connected(5s));
    plain.pipeline_replicated({{"SET", "f", "6"}});
    EXPECT_EQ(calls_of(master, "wait"), 2) << "without a replica wait, nothing waits";
}

TEST(RedisSentinel, WritesWaitingForAReplicaShareOneWaitAndHoldUpNothingElse) {
    RedisServer master;
    RedisServer replica;
    ASSERT_EQ(master.cli("CONFIG SET repl-diskless-sync-delay 0"), "OK");
    ASSERT_EQ(replica.cli("REPLICAOF 127.0.0.1 " + std::to_string(master.port())), "OK");
    ASSERT_TRUE(eventually([&] { return master.cli("INFO replication").find("state=online") != std::string::npos; }));
    FakeSentinel sentinel;
    sentinel.name_master(master.port());
    const RedisClient::Options options{.connect_timeout = 300ms, .command_timeout = 8000ms, .replica_wait = 5000ms};
    RedisClient client(RedisUrl::parse(sentinel_url({&sentinel})), options);
    ASSERT_TRUE(client.wait_connected(5s));
    const long waits_before = calls_of(master, "wait");

    // The replica stalls: the first WAIT stays out, and the writes made meanwhile wait for the next.
    replica.pause();
    constexpr int kWriters = 8;
    std::atomic<int> done{0};
    std::atomic<int> ok{0};
    std::vector<std::thread> writers;
    writers.reserve(kWriters);
    for (int i = 0; i < kWriters; ++i) {
        writers.emplace_back([&, i] {
            const auto key = "w" + std::to_string(i);
            if (client.pipeline_replicated({{"SET", key, "v"}}).front().text == "OK") ++ok;
            ++done;
        });
    }
    // A WAIT is out (Redis holds the connection's later commands until it returns); the other
    // writers have a moment to queue theirs behind it.
    ASSERT_TRUE(eventually([&] { return master.cli("INFO clients").find("blocked_clients:1") != std::string::npos; }));
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(client.command({"PING"}).text, "PONG");
    EXPECT_EQ(done.load(), 0) << "other commands went by while the writes waited for the replica";
    replica.resume();
    for (auto& w : writers) w.join();
    EXPECT_EQ(ok.load(), kWriters);
    const long waits = calls_of(master, "wait") - waits_before;
    EXPECT_GE(waits, 1);
    EXPECT_LT(waits, kWriters) << "writes made while a WAIT was out shared the next one";
    EXPECT_EQ(replica.cli("DBSIZE"), std::to_string(kWriters)) << "all of them on the replica once answered";
}
