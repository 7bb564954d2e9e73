// Redis Cluster's pieces that need no server: key slots and the hash tags of the store's keys,
// which key a command is routed by, redis-cluster:// URLs, and what a node tells the client
// (CLUSTER SHARDS replies, MOVED and ASK errors) read with suspicion: malformed, of the wrong
// types, huge. The client against a real cluster is tests/e2e/redis_cluster.test.mjs.
#include "store/redis/redis_cluster.hpp"
#include "store/redis/redis_cluster_replies.hpp"
#include "store/redis/redis_keys.hpp"
#include "store/redis/redis_slot.hpp"
#include "store/redis/redis_url.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

using namespace mcp::detail;

namespace {

RespValue text(std::string s) { return RespValue{RespValue::Type::bulk, std::move(s), 0, {}}; }
RespValue number(std::int64_t n) { return RespValue{RespValue::Type::integer, {}, n, {}}; }
RespValue list(std::vector<RespValue> elements) {
    return RespValue{RespValue::Type::array, {}, 0, std::move(elements)};
}

RespValue node(const std::string& ip, std::int64_t port, const std::string& role, const std::string& health = "online",
               std::vector<RespValue> more = {}) {
    std::vector<RespValue> fields{text("id"),
                                  text("0123abcd"),
                                  text("port"),
                                  number(port),
                                  text("ip"),
                                  text(ip),
                                  text("endpoint"),
                                  text(ip),
                                  text("role"),
                                  text(role),
                                  text("replication-offset"),
                                  number(42),
                                  text("health"),
                                  text(health)};
    for (auto& m : more) fields.push_back(std::move(m));
    return list(std::move(fields));
}

RespValue shard(std::vector<RespValue> slots, std::vector<RespValue> nodes) {
    return list({text("slots"), list(std::move(slots)), text("nodes"), list(std::move(nodes))});
}

RespValue three_shards() {
    return list(
        {shard({number(0), number(5460)}, {node("10.0.0.1", 7000, "master"), node("10.0.0.4", 7003, "replica")}),
         shard({number(5461), number(10922)}, {node("10.0.0.2", 7001, "master")}),
         shard({number(10923), number(16383)}, {node("10.0.0.3", 7002, "master")})});
}

}  // namespace

TEST(RedisClusterSlots, AreRedisOwn) {
    // Values from the cluster specification and CLUSTER KEYSLOT.
    EXPECT_EQ(key_slot("123456789"), 12739);
    EXPECT_EQ(key_slot("foo"), 12182);
    EXPECT_EQ(key_slot("{user1000}.following"), key_slot("{user1000}.followers"));
    EXPECT_EQ(key_slot("{user1000}.following"), key_slot("user1000"));
    EXPECT_EQ(key_slot("foo{}{bar}"), key_slot(std::string_view("foo{}{bar}")));
    EXPECT_NE(key_slot("foo{}{bar}"), key_slot("bar"));  // an empty tag: the whole key
    EXPECT_EQ(key_slot("foo{{bar}}zap"), key_slot("{bar"));
    EXPECT_EQ(key_slot("foo{bar}{zap}"), key_slot("bar"));
    EXPECT_EQ(key_slot(""), 0);
}

TEST(RedisClusterSlots, KeysOneScriptTouchesShareASlotWhateverTheId) {
    for (const std::string& id :
         std::vector<std::string>{"s-1", "a}b", "{x}", "}{", "", "abc{", std::string(1000, 'z')}) {
        EXPECT_EQ(key_slot(redis_keys::session(id)), key_slot(redis_keys::session_subscriptions(id))) << id;
        EXPECT_EQ(key_slot(redis_keys::mailbox_marker(id)), key_slot(redis_keys::mailbox_answer(id))) << id;
    }
    // A topic's channels spread over the slots.
    std::set<std::uint16_t> slots;
    for (unsigned shard = 0; shard < kClusterChannelShards; ++shard)
        slots.insert(key_slot(redis_keys::channel("changed", shard)));
    EXPECT_EQ(slots.size(), kClusterChannelShards);
}

TEST(RedisClusterRouting, ByTheFirstKey) {
    EXPECT_EQ(routing_key({"GET", "k"}), "k");
    EXPECT_EQ(routing_key({"SPUBLISH", "ch", "m"}), "ch");
    EXPECT_EQ(routing_key({"EVAL", "return 1", "2", "a", "b", "x"}), "a");
    EXPECT_EQ(routing_key({"eval", "return 1", "1", "a"}), "a");
    EXPECT_EQ(routing_key({"EVAL", "return 1", "0"}), std::nullopt);
    EXPECT_EQ(routing_key({"EVAL", "return 1"}), std::nullopt);
    EXPECT_EQ(routing_key({"PING"}), std::nullopt);
    EXPECT_EQ(routing_key({"CLUSTER", "SHARDS"}), std::nullopt);
    EXPECT_EQ(routing_key({}), std::nullopt);
}

TEST(RedisClusterUrl, Parses) {
    auto url = RedisUrl::parse("redis-cluster://u:p%40ss@10.0.0.1:7000,10.0.0.2,[::1]:7002");
    ASSERT_TRUE(url.cluster.has_value());
    EXPECT_EQ(*url.cluster, (std::vector<RedisAddress>{{"10.0.0.1", 7000}, {"10.0.0.2", 6379}, {"::1", 7002}}));
    EXPECT_EQ(url.username, "u");
    EXPECT_EQ(url.password, "p@ss");
    EXPECT_FALSE(url.tls.has_value());
    EXPECT_FALSE(url.sentinels.has_value());
    auto tls = RedisUrl::parse("rediss-cluster://h:7000?tls-ca-file=/etc/ca.pem&tls-server-name=redis.internal");
    ASSERT_TRUE(tls.tls.has_value());
    EXPECT_EQ(tls.tls->ca_file, "/etc/ca.pem");
    EXPECT_EQ(tls.tls->server_name, "redis.internal");
    EXPECT_EQ(*tls.cluster, (std::vector<RedisAddress>{{"h", 7000}}));
}

TEST(RedisClusterUrl, RefusesWhatIsNotOne) {
    std::string many = "redis-cluster://";
    for (int i = 0; i < 33; ++i) {
        many += 'h';
        many += std::to_string(i);
        many += ":1,";
    }
    many.pop_back();
    for (const std::string& bad :
         {std::string("redis-cluster://h:1/0"), std::string("redis-cluster://h:1/"), std::string("redis-cluster://"),
          std::string("redis-cluster://h1,,h2"), std::string("redis-cluster://h:0"),
          std::string("redis-cluster://h:99999"), std::string("redis-cluster://h:1?tls-ca-file=x"),
          std::string("rediss-cluster://h:1?tls-ca-file="), std::string("redis-cluster://h:1?x=1"),
          std::string("redis-cluster://h[1"), std::string("redis+cluster://h:1"),
          std::string("redis-cluster://").append(1 << 20, ','), many}) {
        EXPECT_THROW(RedisUrl::parse(bad), std::invalid_argument) << bad.substr(0, 80);
    }
    try {
        RedisUrl::parse("redis-cluster://:secret-word@h:1/3");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("secret-word"), std::string::npos);
    }
}

TEST(RedisClusterReplies, ShardsAreRead) {
    const auto shards = cluster_shards(three_shards(), false);
    ASSERT_TRUE(shards.has_value());
    ASSERT_EQ(shards->size(), 3u);
    EXPECT_EQ((*shards)[0].master, (RedisAddress{"10.0.0.1", 7000}));
    EXPECT_EQ((*shards)[0].slots, (std::vector<std::pair<std::uint16_t, std::uint16_t>>{{0, 5460}}));
    EXPECT_EQ((*shards)[2].master, (RedisAddress{"10.0.0.3", 7002}));

    // A shard whose master failed, or only has replicas, serves nothing yet.
    const auto failed =
        cluster_shards(list({shard({number(0), number(16383)},
                                   {node("10.0.0.1", 7000, "master", "failed"), node("10.0.0.4", 7003, "replica")})}),
                       false);
    ASSERT_TRUE(failed.has_value());
    EXPECT_FALSE((*failed)[0].master.has_value());

    // Over TLS the tls-port; an unknown endpoint ("?") gives way to the ip; several ranges.
    auto tls_node = node("10.0.0.9", 7000, "master", "online", {text("tls-port"), number(17000)});
    tls_node.elements[7] = text("?");
    const auto tls = cluster_shards(list({shard({number(0), number(10), number(20), number(30)}, {tls_node})}), true);
    ASSERT_TRUE(tls.has_value());
    EXPECT_EQ((*tls)[0].master, (RedisAddress{"10.0.0.9", 17000}));
    EXPECT_EQ((*tls)[0].slots.size(), 2u);
    EXPECT_EQ((*cluster_shards(list({shard({number(0), number(1)}, {tls_node})}), false))[0].master,
              (RedisAddress{"10.0.0.9", 7000}));
    EXPECT_EQ(cluster_shards(list({}), false)->size(), 0u);
}

TEST(RedisClusterReplies, MalformedShardsAreRefusedWhole) {
    auto with = [](auto change) {
        auto reply = three_shards();
        change(reply);
        return cluster_shards(reply, false);
    };
    const RespValue error{RespValue::Type::error, "ERR unknown command 'CLUSTER'", 0, {}};
    EXPECT_FALSE(cluster_shards(error, false));
    EXPECT_FALSE(cluster_shards(text("shards"), false));
    EXPECT_FALSE(cluster_shards(RespValue{}, false));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0] = text("x"); }));                          // a shard not a list
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements.pop_back(); }));                  // odd fields
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1] = text("0-5460"); }));         // slots not a list
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1].elements[0] = text("0"); }));  // slot not a number
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1].elements[1] = number(16384); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1].elements[0] = number(-1); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1].elements[0] = number(6000); }));  // backwards
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1].elements.pop_back(); }));         // half a range
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[3] = text("nodes"); }));             // nodes not a list
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[3].elements[0] = number(1); }));  // a node not a list
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[3].elements[0].elements[3] = text("7000"); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[3].elements[0].elements[3] = number(70000); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[3].elements[0].elements[5] = number(1); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[0] = number(1); }));  // a field name not text
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements.resize(2); }));       // no nodes
    EXPECT_FALSE(with([](RespValue& r) {                                              // slots twice
        r.elements[0].elements.push_back(text("slots"));
        r.elements[0].elements.push_back(list({number(0), number(1)}));
    }));
    // Huge: more nodes in a shard, shards or ranges than a cluster can have.
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[3].elements.resize(65, node("h", 1, "replica")); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements.resize(16385, r.elements[0]); }));
    EXPECT_FALSE(with([](RespValue& r) { r.elements[0].elements[1].elements.resize(2 * 16384 + 2, number(0)); }));
    // A master with no usable address serves nothing; the reply stays usable.
    const auto no_host = with([](RespValue& r) {
        r.elements[1].elements[3].elements[0].elements[5] = text("bad host");
        r.elements[1].elements[3].elements[0].elements[7] = text(std::string(300, 'h'));
    });
    ASSERT_TRUE(no_host.has_value());
    EXPECT_FALSE((*no_host)[1].master.has_value());
}

TEST(RedisClusterReplies, RedirectsAreRead) {
    const auto moved = cluster_redirect("MOVED 3999 127.0.0.1:6381", "10.0.0.1");
    ASSERT_TRUE(moved.has_value());
    EXPECT_FALSE(moved->ask);
    EXPECT_EQ(moved->slot, 3999);
    EXPECT_EQ(moved->to, (RedisAddress{"127.0.0.1", 6381}));
    const auto ask = cluster_redirect("ASK 16383 redis-2.internal:7000", "x");
    ASSERT_TRUE(ask.has_value());
    EXPECT_TRUE(ask->ask);
    EXPECT_EQ(ask->to, (RedisAddress{"redis-2.internal", 7000}));
    EXPECT_EQ(cluster_redirect("MOVED 1 ::1:7000", "x")->to, (RedisAddress{"::1", 7000}));
    EXPECT_EQ(cluster_redirect("MOVED 1 [::1]:7000", "x")->to, (RedisAddress{"::1", 7000}));
    EXPECT_EQ(cluster_redirect("MOVED 0 :7000", "10.0.0.5")->to, (RedisAddress{"10.0.0.5", 7000}));  // unknown host
}

TEST(RedisClusterReplies, MalformedRedirectsAreNotFollowed) {
    for (const std::string& bad : {std::string("MOVED"),
                                   std::string("MOVED "),
                                   std::string("MOVED 1"),
                                   std::string("MOVED 1 h"),
                                   std::string("MOVED 16384 h:1"),
                                   std::string("MOVED -1 h:1"),
                                   std::string("MOVED x h:1"),
                                   std::string("MOVED 1 h:0"),
                                   std::string("MOVED 1 h:70000"),
                                   std::string("MOVED 1 h:12x"),
                                   std::string("MOVED 1 h:"),
                                   std::string("MOVED 1 bad host:1"),
                                   std::string("MOVED  1 h:1"),
                                   std::string("ASK 1 h/x:1"),
                                   std::string("moved 1 h:1"),
                                   std::string("TRYAGAIN Multiple keys"),
                                   std::string("CLUSTERDOWN The cluster is down"),
                                   std::string("ERR MOVED 1 h:1"),
                                   std::string("MOVED 99999999999999999999 h:1"),
                                   std::string("MOVED 1 ").append(100'000, 'a').append(":1"),
                                   std::string("MOVED 1 h:").append(100'000, '1')}) {
        EXPECT_FALSE(cluster_redirect(bad, "").has_value()) << bad.substr(0, 60);
    }
    EXPECT_FALSE(cluster_redirect("MOVED 0 :7000", "").has_value());  // no host from anywhere
}
