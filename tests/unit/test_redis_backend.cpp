// The Redis backend against a real redis-server, with two Backend instances on one Redis standing
// for two nodes: session records (revisions, subscription sets, key TTLs, hostile records), SSE
// journals, mailboxes, signals between nodes, and Redis going away and coming back
// (docs/adr/0011-several-nodes.md). The session service over it: test_redis_sessions.cpp.
#include "redis_fixture.hpp"

#include <gtest/gtest.h>
#include <boost/json/value.hpp>

#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stop_token>
#include <thread>
#include <utility>

using namespace mcp;
using namespace mcp::detail;
using namespace std::chrono_literals;
using namespace testing_support;

namespace {

using RedisBackendTest = RedisTest;

std::pair<std::uint64_t, std::uint64_t> stream_id(const std::string& id) {
    const auto dash = id.find('-');
    std::pair<std::uint64_t, std::uint64_t> out{0, 0};
    if (dash == std::string::npos) return out;
    std::from_chars(id.data(), id.data() + dash, out.first);
    std::from_chars(id.data() + dash + 1, id.data() + id.size(), out.second);
    return out;
}

std::shared_ptr<const ClientState> test_client() {
    auto client = std::make_shared<ClientState>();
    client->protocol_version = "2025-11-25";
    client->capabilities = boost::json::object{{"elicitation", boost::json::object{}},
                                               {"roots", boost::json::object{{"listChanged", true}}}};
    client->info.name = "test-client";
    client->info.version = "1.2.3";
    client->info.title = "Test Client";
    return client;
}

SessionRecord record_of(const std::string& id) {
    return SessionRecord{id, 0, LogLevel::debug, "alice", test_client(), {}};
}
SessionChange level_change(LogLevel level) { return {SessionChange::Kind::log_level, level, {}}; }
SessionChange subscribe_change(std::string uri) { return {SessionChange::Kind::subscribe, {}, std::move(uri)}; }
SessionChange unsubscribe_change(std::string uri) { return {SessionChange::Kind::unsubscribe, {}, std::move(uri)}; }

}  // namespace

// --- choosing the store ----------------------------------------------------------------------

TEST(StoreUrl, MemoryAndEmptyMeanOneNode) {
    for (const char* url : {"memory", ""}) {
        EXPECT_NO_THROW(check_store_url(url)) << url;
        auto backend = make_backend(url);
        ASSERT_NE(backend, nullptr) << url;
        EXPECT_EQ(backend->bus(), nullptr) << url;
    }
}

TEST(StoreUrl, AcceptsRedisUrls) {
    for (const char* url : {"redis://127.0.0.1", "redis://127.0.0.1:6379", "redis://localhost:6380/2",
                            "redis://:pw@db.internal:7000/15", "redis://[::1]:7000/0", "redis://h/0"}) {
        EXPECT_NO_THROW(check_store_url(url)) << url;
    }
}

TEST(StoreUrl, RefusesWhatIsNotAStoreUrl) {
    for (const char* url : {"redis://h:0",
                            "redis://h:65536",
                            "redis://h:99999",
                            "redis://h:12a",
                            "redis://h:",
                            "redis://h:-1",
                            "redis://h/x",
                            "redis://h/-1",
                            "redis://h/1x",
                            "redis://h/99999999999",
                            "http://h:6379",
                            "rediss:/h:6379",
                            "REDIS://h",
                            "redis:/h",
                            "redis:h",
                            "Memory",
                            "memory ",
                            " memory",
                            "garbage",
                            "\x01\xff",
                            "mem"}) {
        EXPECT_THROW(check_store_url(url), std::invalid_argument) << url;
        EXPECT_THROW(make_backend(url), std::invalid_argument) << url;  // without connecting to anything
    }
}

TEST(StoreUrl, ErrorsNeverEchoThePassword) {
    for (const char* url :
         {"redis://:hunter2@h:bad", "redis://:hunter2@h:0", "redis://:hunter2@h:70000", "redis://:hunter2@h/db",
          "redis://user:hunter2@h:1x/0", "rediss://:hunter2@h:bad", "http://user:hunter2@h",
          "unix://:hunter2@/tmp/redis.sock", "hunter2@garbage", "REDIS://:hunter2@h"}) {
        for (int via = 0; via < 2; ++via) {
            try {
                if (via == 0) {
                    check_store_url(url);
                } else {
                    make_backend(url);
                }
                ADD_FAILURE() << "accepted " << url;
            } catch (const std::invalid_argument& e) {
                const std::string what = e.what();
                EXPECT_FALSE(what.empty()) << url;
                EXPECT_EQ(what.find("hunter2"), std::string::npos) << url << " -> " << what;
            }
        }
    }
}

// --- sessions --------------------------------------------------------------------------------

// No client quota in the way: those tests are elsewhere (test_redis_sessions.cpp).
constexpr std::size_t kNoQuota = 1000;

// --- session records --------------------------------------------------------------------------

TEST_F(RedisBackendTest, RecordsAreInsertedOnceAndLoadedWhole) {
    auto a = node();
    auto b = node();
    auto records_a = a->make_session_records(60s, 60s);
    auto records_b = b->make_session_records(60s, 60s);

    ASSERT_EQ(records_a->insert(record_of("s-rec"), kNoQuota), SessionRecords::Insert::inserted);
    EXPECT_EQ(records_b->insert(record_of("s-rec"), kNoQuota), SessionRecords::Insert::id_taken);
    EXPECT_EQ(records_a->apply("s-rec", subscribe_change("file:///a.txt")), 1);

    auto loaded = records_b->load("s-rec", true);
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->id, "s-rec");
    EXPECT_EQ(loaded->revision, 1);
    EXPECT_EQ(loaded->owner, "alice");
    EXPECT_EQ(loaded->level, LogLevel::debug);
    ASSERT_NE(loaded->client, nullptr);
    EXPECT_EQ(loaded->client->protocol_version, "2025-11-25");
    EXPECT_EQ(loaded->client->capabilities, test_client()->capabilities);
    EXPECT_EQ(loaded->client->info.name, "test-client");
    EXPECT_EQ(loaded->client->info.version, "1.2.3");
    EXPECT_EQ(loaded->client->info.title, "Test Client");
    EXPECT_EQ(loaded->subscriptions, std::vector<std::string>{"file:///a.txt"});
    EXPECT_FALSE(records_b->load("unknown", true).has_value());
    EXPECT_TRUE(keys("mcp:s:{unknown*").empty());  // looking does not create
}

TEST_F(RedisBackendTest, ChangesAreAppliedAtomicallyWithARevisionEach) {
    auto a = node();
    auto b = node();
    auto records_a = a->make_session_records(60s, 60s);
    auto records_b = b->make_session_records(60s, 60s);
    ASSERT_EQ(records_a->insert(record_of("s-change"), kNoQuota), SessionRecords::Insert::inserted);
    EXPECT_EQ(revision("s-change"), 0);

    EXPECT_EQ(records_b->apply("s-change", level_change(LogLevel::error)), 1);
    EXPECT_EQ(records_a->apply("s-change", subscribe_change("file:///b.txt")), 2);
    EXPECT_EQ(records_b->apply("s-change", subscribe_change("file:///a.txt")), 3);
    EXPECT_EQ(records_a->apply("s-change", unsubscribe_change("file:///a.txt")), 4);
    EXPECT_EQ(raw({"HGET", "mcp:s:{s-change}", "level"}).text, "error");
    EXPECT_EQ(members("mcp:ss:{s-change}"), std::vector<std::string>{"file:///b.txt"});
    EXPECT_EQ(members("mcp:sub:{file:///b.txt}"), std::vector<std::string>{"s-change"});
    EXPECT_FALSE(key_exists("mcp:sub:{file:///a.txt}"));

    // Concurrent changes from two nodes all survive, each with a revision of its own.
    {
        std::vector<std::jthread> writers;
        for (auto* records : {records_a.get(), records_b.get()}) {
            const std::string node = records == records_a.get() ? "a" : "b";
            writers.emplace_back([records, node] {
                for (int i = 0; i < 50; ++i)
                    records->apply("s-change", subscribe_change("file:///" + node + std::to_string(i)));
            });
        }
    }
    EXPECT_EQ(revision("s-change"), 104);
    EXPECT_EQ(members("mcp:ss:{s-change}").size(), 101u);

    // A change to a session deleted meanwhile does not bring it back.
    EXPECT_TRUE(records_a->remove("s-change"));
    EXPECT_FALSE(records_b->remove("s-change"));
    EXPECT_EQ(records_b->apply("s-change", level_change(LogLevel::alert)), -1);
    EXPECT_EQ(records_b->apply("s-change", subscribe_change("file:///c.txt")), -1);
    EXPECT_EQ(keys("mcp:*"), std::vector<std::string>{});
}

TEST_F(RedisBackendTest, IdleRecordsExpireAndExistSaysSo) {
    auto a = node();
    auto records = a->make_session_records(300ms, 300ms);
    ASSERT_EQ(records->insert(record_of("s-idle"), kNoQuota), SessionRecords::Insert::inserted);
    ASSERT_EQ(records->insert(record_of("s-busy"), kNoQuota), SessionRecords::Insert::inserted);
    EXPECT_GT(pttl("mcp:s:{s-idle}"), 0);
    EXPECT_LE(pttl("mcp:s:{s-idle}"), 300);
    EXPECT_EQ(records->exist({"s-idle", "s-busy", "s-never"}), (std::vector<bool>{true, true, false}));

    // s-busy is used (load with touch); s-idle is not, and its record expires. The server's own
    // lookups (no touch) do not keep a session alive.
    EXPECT_TRUE(eventually([&] {
        EXPECT_TRUE(records->load("s-busy", true).has_value());
        records->load("s-idle", false);
        return !key_exists("mcp:s:{s-idle}");
    }));
    EXPECT_EQ(records->exist({"s-idle", "s-busy"}), (std::vector<bool>{false, true}));
    EXPECT_TRUE(records->exist({}).empty());
}

TEST_F(RedisBackendTest, ExistFailsWhenRedisAnswersErrors) {
    // A Redis that answers errors (here: an ACL refusing EXISTS; in production, -LOADING while a
    // restarted Redis reads its dump) must not be taken for "every session expired".
    auto a = node();
    auto records = a->make_session_records(60s, 60s);
    ASSERT_EQ(records->insert(record_of("s-kept"), kNoQuota), SessionRecords::Insert::inserted);
    ASSERT_EQ(raw({"ACL", "SETUSER", "default", "-exists"}).text, "OK");
    EXPECT_TRUE(throws_store_unavailable([&] { records->exist({"s-kept"}); }));
    ASSERT_EQ(raw({"ACL", "SETUSER", "default", "+@all"}).text, "OK");
    EXPECT_TRUE(key_exists("mcp:s:{s-kept}"));
}

TEST_F(RedisBackendTest, EveryKeyTheStoreWritesHasATimeToLive) {
    auto a = node();
    auto b = node();
    auto records_a = a->make_session_records(60s, 60s);
    auto records_b = b->make_session_records(60s, 60s);
    auto journal = a->make_journal(JournalLimits{.ttl = 60s});

    auto counted = record_of("s-ttl");
    counted.charged_to = "a:192.0.2.7";
    ASSERT_EQ(records_a->insert(counted, kNoQuota), SessionRecords::Insert::inserted);
    records_a->apply("s-ttl", subscribe_change("file:///a.txt"));
    records_b->apply("s-ttl", subscribe_change("file:///b.txt"));
    records_b->apply("s-ttl", level_change(LogLevel::notice));
    journal->append("s-ttl/get", "{}");
    {
        // Expected by a node that went away since: the answer stays stored, for its time to live.
        auto gone = node();
        gone->mailbox().expect("s-ttl-mb", 30s, [](boost::json::value) {});
    }
    ASSERT_TRUE(b->mailbox().deliver("s-ttl-mb", boost::json::value(1)));
    a->mailbox().expect("s-ttl-mb2", 30s, [](boost::json::value) {});

    auto all = keys("mcp:*");
    std::erase(all, "mcp:mbo:{s-ttl-mb}");  // an answered slot's marker may go with the answer
    EXPECT_EQ(all, (std::vector<std::string>{"mcp:cs:{a:192.0.2.7}", "mcp:j:{s-ttl/get}", "mcp:mb:{s-ttl-mb}",
                                             "mcp:mbo:{s-ttl-mb2}", "mcp:s:{s-ttl}", "mcp:ss:{s-ttl}",
                                             "mcp:sub:{file:///a.txt}", "mcp:sub:{file:///b.txt}"}));
    for (const auto& key : all) {
        const auto ttl = pttl(key);
        EXPECT_GT(ttl, 0) << key;
        EXPECT_LE(ttl, 600'000) << key;
    }
    EXPECT_GT(pttl("mcp:s:{s-ttl}"), 50'000);
    EXPECT_LE(pttl("mcp:mbo:{s-ttl-mb2}"), 30'000);

    // A client's use refreshes the record, its subscriptions, their subscriber sets and its
    // client's count.
    const auto refreshed = {"mcp:s:{s-ttl}", "mcp:ss:{s-ttl}", "mcp:sub:{file:///a.txt}", "mcp:sub:{file:///b.txt}",
                            "mcp:cs:{a:192.0.2.7}"};
    for (const auto& key : refreshed) raw({"PEXPIRE", key, "5000"});
    ASSERT_TRUE(records_a->load("s-ttl", true).has_value());
    for (const auto& key : refreshed) EXPECT_GT(pttl(key), 50'000) << key;
    // The indexes outlive the session by the refresh interval (a quarter of the idle timeout),
    // within which this node's next touches refresh the record only; another node refreshes them
    // at its own first touch.
    EXPECT_GT(pttl("mcp:cs:{a:192.0.2.7}"), 60'000);
    for (const auto& key : refreshed) raw({"PEXPIRE", key, "5000"});
    ASSERT_TRUE(records_a->load("s-ttl", true).has_value());
    EXPECT_GT(pttl("mcp:s:{s-ttl}"), 50'000);
    EXPECT_LE(pttl("mcp:cs:{a:192.0.2.7}"), 5000);
    EXPECT_LE(pttl("mcp:sub:{file:///a.txt}"), 5000);
    ASSERT_TRUE(records_b->load("s-ttl", true).has_value());
    EXPECT_GT(pttl("mcp:cs:{a:192.0.2.7}"), 60'000);
    EXPECT_GT(pttl("mcp:sub:{file:///a.txt}"), 60'000);

    // A change keeps the time to live.
    records_a->apply("s-ttl", level_change(LogLevel::info));
    records_a->apply("s-ttl", unsubscribe_change("file:///a.txt"));
    for (const auto& key : keys("mcp:*")) EXPECT_GT(pttl(key), 0) << key;
}

TEST_F(RedisBackendTest, ATouchRefreshesTheClientsCountOncePerIntervalOnEachNode) {
    auto a = node();
    auto records = a->make_session_records(400ms, 400ms);  // a refresh interval of 100 ms
    auto counted = record_of("s-often");
    counted.charged_to = "a:192.0.2.9";
    ASSERT_EQ(records->insert(counted, kNoQuota), SessionRecords::Insert::inserted);
    const auto score = [&] { return raw({"ZSCORE", "mcp:cs:{a:192.0.2.9}", "s-often"}).text; };
    const auto inserted = score();
    std::this_thread::sleep_for(5ms);  // Redis's clock moves on
    ASSERT_TRUE(records->load("s-often", true).has_value());
    const auto first = score();
    EXPECT_NE(first, inserted);
    std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(records->load("s-often", true).has_value());
    EXPECT_EQ(score(), first) << "a second touch within the interval leaves the count alone";
    std::this_thread::sleep_for(150ms);
    ASSERT_TRUE(records->load("s-often", true).has_value());
    EXPECT_NE(score(), first) << "a touch after the interval refreshes it";
    EXPECT_TRUE(records->remove("s-often"));
    EXPECT_EQ(keys("mcp:*"), std::vector<std::string>{});
}

TEST_F(RedisBackendTest, SubscriptionSetsFollowSubscribeUnsubscribeAndRemove) {
    auto a = node();
    auto b = node();
    auto records_a = a->make_session_records(60s, 60s);
    auto records_b = b->make_session_records(60s, 60s);
    const std::string uri = "file:///shared.txt";
    const std::string set = "mcp:sub:{" + uri + "}";

    ASSERT_EQ(records_a->insert(record_of("s-sub-1"), kNoQuota), SessionRecords::Insert::inserted);
    ASSERT_EQ(records_b->insert(record_of("s-sub-2"), kNoQuota), SessionRecords::Insert::inserted);
    EXPECT_FALSE(key_exists(set));
    records_a->apply("s-sub-1", subscribe_change(uri));
    EXPECT_EQ(members(set), std::vector<std::string>{"s-sub-1"});
    records_b->apply("s-sub-2", subscribe_change(uri));
    records_b->apply("s-sub-2", subscribe_change(uri));  // twice: one membership
    const std::vector<std::string> both{"s-sub-1", "s-sub-2"};
    EXPECT_EQ(members(set), both);
    EXPECT_EQ(sorted(records_a->subscribers(uri)), both);
    EXPECT_EQ(sorted(records_b->subscribers(uri)), both);
    EXPECT_TRUE(records_a->subscribers("file:///nobody.txt").empty());

    records_a->apply("s-sub-1", unsubscribe_change(uri));
    EXPECT_EQ(records_b->subscribers(uri), std::vector<std::string>{"s-sub-2"});
    records_a->apply("s-sub-1", unsubscribe_change(uri));  // not subscribed: harmless
    EXPECT_EQ(members(set), std::vector<std::string>{"s-sub-2"});

    records_a->apply("s-sub-2", unsubscribe_change(uri));
    records_a->apply("s-sub-2", subscribe_change("file:///other.txt"));
    EXPECT_FALSE(key_exists(set));
    EXPECT_EQ(records_b->subscribers("file:///other.txt"), std::vector<std::string>{"s-sub-2"});

    // Removing a session takes it out of its sets.
    EXPECT_TRUE(records_b->remove("s-sub-2"));
    EXPECT_TRUE(records_a->subscribers("file:///other.txt").empty());
}

TEST_F(RedisBackendTest, SubscribersDoesNotListExpiredSessions) {
    // s-gone expires while s-kept, subscribed to the same resource, keeps the subscriber set
    // alive: the set must not go on naming (and growing with) sessions that no longer exist.
    auto a = node();
    auto records = a->make_session_records(300ms, 300ms);
    const std::string uri = "file:///popular.txt";
    ASSERT_EQ(records->insert(record_of("s-gone"), kNoQuota), SessionRecords::Insert::inserted);
    ASSERT_EQ(records->insert(record_of("s-kept"), kNoQuota), SessionRecords::Insert::inserted);
    records->apply("s-gone", subscribe_change(uri));
    records->apply("s-kept", subscribe_change(uri));
    ASSERT_TRUE(eventually([&] {
        EXPECT_TRUE(records->load("s-kept", true).has_value());
        return !key_exists("mcp:s:{s-gone}");
    }));
    EXPECT_EQ(records->subscribers(uri), std::vector<std::string>{"s-kept"});
    EXPECT_EQ(members("mcp:sub:{" + uri + "}"), std::vector<std::string>{"s-kept"});
}

// --- hostile records -------------------------------------------------------------------------

TEST_F(RedisBackendTest, HostileRecordsAreRefusedOrIgnoredNeverFatal) {
    auto a = node();
    auto records = a->make_session_records(60s, 60s);

    const std::string huge(2 << 20, 'x');
    std::string deep;
    for (int i = 0; i < 100'000; ++i) deep += '[';
    const std::string good_client = "{\"owner\":\"a\",\"v\":\"2025-11-25\",\"caps\":{},\"info\":{\"name\":\"n\"}}";
    using Fields = std::vector<std::pair<std::string, std::string>>;
    struct Hostile {
        Fields fields;
        std::vector<std::string> subscriptions;
        bool refused;  // load finds nothing
    };
    const std::vector<Hostile> hostile{
        {{{"rev", "0"}, {"level", "info"}, {"client", ""}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "not json"}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"a\","}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", std::string("\x00\xff\xfe{\x01", 5)}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "null"}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "[]"}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{}"}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":5}"}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", deep}}, {}, true},
        {{{"rev", "0"}, {"level", "loud"}, {"client", good_client}}, {}, true},
        {{{"rev", "0"}, {"level", ""}, {"client", good_client}}, {}, true},
        {{{"rev", "0"}, {"level", huge}, {"client", good_client}}, {}, true},
        {{{"rev", "0"}, {"client", good_client}}, {}, true},  // no level
        {{{"rev", "0"}, {"level", "info"}}, {}, true},        // no client
        {{{"other", "x"}}, {}, true},
        {{{"level", "info"}, {"client", good_client}}, {}, true},                  // no revision
        {{{"rev", "abc"}, {"level", "info"}, {"client", good_client}}, {}, true},  // revisions must be
        {{{"rev", "-5"}, {"level", "info"}, {"client", good_client}}, {}, true},   // integers >= 0
        {{{"rev", "1.5"}, {"level", "info"}, {"client", good_client}}, {}, true},
        {{{"rev", "99999999999999999999999"}, {"level", "info"}, {"client", good_client}}, {}, true},
        {{{"rev", huge}, {"level", "info"}, {"client", good_client}, {"extra", huge}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"" + huge + "\"}"}}, {}, false},
        {{{"rev", "0"},
          {"level", "info"},
          {"client", "{\"owner\":\"a\",\"v\":\"" + huge + "\",\"caps\":{\"x\":\"" + huge + "\"}}"}},
         {},
         false},
        {{{"rev", "0"}, {"level", "info"}, {"client", good_client}}, {huge, "", std::string("\x00\r\n", 3)}, false},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"a\",\"v\":5,\"caps\":[],\"info\":\"x\"}"}},
         {},
         false},
        {{{"rev", "0"},
          {"level", "info"},
          {"client", "{\"owner\":\"a\",\"v\":\"x\",\"caps\":7,\"info\":{\"name\":3,\"version\":[]}}"}},
         {},
         false},
        {{{"rev", "9223372036854775807"}, {"level", "info"}, {"client", good_client}}, {}, false},
    };
    for (std::size_t i = 0; i < hostile.size(); ++i) {
        const auto id = "s-hostile-" + std::to_string(i);
        std::vector<std::string> hset{"HSET", "mcp:s:{" + id + "}"};
        for (const auto& [field, value] : hostile[i].fields) {
            hset.push_back(field);
            hset.push_back(value);
        }
        ASSERT_EQ(raw(hset).integer, static_cast<std::int64_t>(hostile[i].fields.size())) << i;
        if (!hostile[i].subscriptions.empty()) {
            std::vector<std::string> sadd{"SADD", "mcp:ss:{" + id + "}"};
            sadd.insert(sadd.end(), hostile[i].subscriptions.begin(), hostile[i].subscriptions.end());
            raw(sadd);
        }
        std::optional<SessionRecord> found;
        EXPECT_TRUE(only_store_unavailable([&] { found = records->load(id, true); })) << i;
        if (hostile[i].refused) {
            EXPECT_FALSE(found.has_value()) << i;
        } else if (found) {
            EXPECT_EQ(found->id, id) << i;
            EXPECT_TRUE(only_store_unavailable([&] { records->apply(id, level_change(LogLevel::error)); })) << i;
            EXPECT_TRUE(only_store_unavailable([&] { records->apply(id, subscribe_change("file:///h.txt")); })) << i;
            EXPECT_TRUE(only_store_unavailable([&] { records->load(id, true); })) << i;
        }
        EXPECT_TRUE(only_store_unavailable([&] { records->remove(id); })) << i;
        EXPECT_TRUE(only_store_unavailable([&] { records->exist({id}); })) << i;
    }

    // In a usable record, fields of the wrong type are ignored.
    raw({"HSET", "mcp:s:{s-partial}", "rev", "0", "level", "notice", "client",
         "{\"owner\":\"bob\",\"v\":5,\"caps\":[]}"});
    raw({"SADD", "mcp:ss:{s-partial}", "file:///ok"});
    auto partial = records->load("s-partial", true);
    ASSERT_TRUE(partial.has_value());
    EXPECT_EQ(partial->owner, "bob");
    EXPECT_EQ(partial->level, LogLevel::notice);
    EXPECT_EQ(partial->subscriptions, std::vector<std::string>{"file:///ok"});
    EXPECT_EQ(partial->client, nullptr);  // "v" was not a string

    // Keys of the wrong type: Redis answers WRONGTYPE, which is the store failing, not a crash.
    raw({"SET", "mcp:s:{s-string}", "{}"});
    EXPECT_TRUE(throws_store_unavailable([&] { records->load("s-string", true); }));
    EXPECT_TRUE(only_store_unavailable([&] { records->remove("s-string"); }));
    raw({"HSET", "mcp:s:{s-badset}", "rev", "0", "level", "info", "client", good_client});
    raw({"SET", "mcp:ss:{s-badset}", "x"});
    EXPECT_TRUE(throws_store_unavailable([&] { records->load("s-badset", true); }));
    EXPECT_TRUE(only_store_unavailable([&] { records->remove("s-badset"); }));
    ASSERT_EQ(records->insert(record_of("s-wrongset"), kNoQuota), SessionRecords::Insert::inserted);
    raw({"HSET", "mcp:sub:{file:///wrong.txt}", "f", "v"});  // a subscriber "set" of the wrong type
    EXPECT_TRUE(throws_store_unavailable([&] { records->apply("s-wrongset", subscribe_change("file:///wrong.txt")); }));
    EXPECT_TRUE(throws_store_unavailable([&] { records->subscribers("file:///wrong.txt"); }));

    // The store still works afterwards.
    ASSERT_EQ(records->insert(record_of("s-fine"), kNoQuota), SessionRecords::Insert::inserted);
    EXPECT_TRUE(records->load("s-fine", true).has_value());
}

// --- journals --------------------------------------------------------------------------------

TEST_F(RedisBackendTest, JournalAppendsAndReplaysAcrossNodes) {
    auto a = node();
    auto b = node();
    auto journal_a = a->make_journal(JournalLimits{});
    auto journal_b = b->make_journal(JournalLimits{});
    const std::string stream = "s-j/post-1";

    EXPECT_FALSE(journal_a->exists(stream));
    EXPECT_EQ(journal_a->last_id(stream), "");
    bool complete = false;
    EXPECT_TRUE(journal_b->after(stream, "", complete).empty());

    const std::vector<std::string> data{"{\"n\":1}", "{\"n\":2}", "line\r\nbreak \xc3\xa9", "{\"n\":4}"};
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < data.size(); ++i) {
        ids.push_back((i % 2 == 0 ? journal_a : journal_b)->append(stream, data[i]));
        if (i > 0) {
            EXPECT_LT(stream_id(ids[i - 1]), stream_id(ids[i])) << ids[i - 1] << " " << ids[i];
        }
    }
    ids.push_back(journal_a->append(stream, ""));  // the end marker
    EXPECT_LT(stream_id(ids[3]), stream_id(ids[4]));

    EXPECT_TRUE(journal_a->exists(stream));
    EXPECT_TRUE(journal_b->exists(stream));
    EXPECT_FALSE(journal_b->exists("s-j/other"));
    EXPECT_EQ(journal_b->last_id(stream), ids[4]);

    complete = false;
    auto all = journal_b->after(stream, "", complete);
    EXPECT_TRUE(complete);
    ASSERT_EQ(all.size(), 5u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(all[i].id, ids[i]);
        EXPECT_EQ(all[i].data, data[i]);
    }
    EXPECT_EQ(all[4].id, ids[4]);
    EXPECT_EQ(all[4].data, "");

    auto rest = journal_a->after(stream, ids[1], complete);
    ASSERT_EQ(rest.size(), 3u);
    EXPECT_EQ(rest[0].id, ids[2]);
    EXPECT_EQ(rest[0].data, data[2]);
    EXPECT_EQ(rest[2].data, "");
    EXPECT_TRUE(journal_a->after(stream, ids[4], complete).empty());

    // Streams are separate.
    journal_a->append("s-j/post-2", "other");
    EXPECT_EQ(journal_b->after(stream, "", complete).size(), 5u);

    journal_b->drop(stream);
    EXPECT_FALSE(journal_a->exists(stream));
    EXPECT_EQ(journal_a->last_id(stream), "");
    EXPECT_TRUE(journal_a->after(stream, "", complete).empty());
    EXPECT_TRUE(journal_a->exists("s-j/post-2"));
    EXPECT_NO_THROW(journal_a->drop(stream));  // dropping twice is harmless
}

TEST_F(RedisBackendTest, JournalIsTrimmedAndExpires) {
    auto a = node();
    auto journal = a->make_journal(JournalLimits{.events_per_stream = 100, .ttl = 60s});
    const std::string stream = "s-trim/get";
    std::string last;
    for (int i = 0; i < 1000; ++i) last = journal->append(stream, std::to_string(i));
    const auto length = raw({"XLEN", "mcp:j:{" + stream + "}"}).integer;
    // MAXLEN ~: Redis trims whole nodes (100 entries by default), so about the limit, never far above.
    EXPECT_GE(length, 100);
    EXPECT_LT(length, 200);
    bool complete = false;
    auto kept = journal->after(stream, "", complete);
    ASSERT_EQ(kept.size(), static_cast<std::size_t>(length));
    EXPECT_EQ(kept.back().id, last);
    EXPECT_EQ(kept.back().data, "999");
    for (std::size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept[i].data, std::to_string(1000 - kept.size() + i));
    EXPECT_GT(pttl("mcp:j:{" + stream + "}"), 50'000);
    EXPECT_LE(pttl("mcp:j:{" + stream + "}"), 60'000);

    auto short_lived = a->make_journal(JournalLimits{.ttl = 200ms});
    short_lived->append("s-trim/post", "x");
    const auto ttl = pttl("mcp:j:{s-trim/post}");
    EXPECT_GT(ttl, 0);
    EXPECT_LE(ttl, 200);
    EXPECT_TRUE(eventually([&] { return !short_lived->exists("s-trim/post"); }, 3s));
}

// --- mailboxes -------------------------------------------------------------------------------

TEST_F(RedisBackendTest, MailboxAnswerDeliveredOnAnotherNodeWakesTheWaiter) {
    auto a = node();
    auto b = node();
    wait_listening(2);

    MailboxWait wait_mb_1(a->mailbox(), "mb-1", 30s);
    std::optional<boost::json::value> got;
    std::atomic<bool> done{false};
    Clock::time_point arrived;
    std::jthread waiter([&] {
        got = wait_mb_1.get(Clock::now() + 10s, {});
        arrived = Clock::now();
        done = true;
    });
    std::this_thread::sleep_for(100ms);  // the waiter sleeps on its slot
    EXPECT_FALSE(done.load());
    const auto delivered = Clock::now();
    EXPECT_TRUE(b->mailbox().deliver("mb-1", boost::json::value(boost::json::object{{"answer", 42}})));
    ASSERT_TRUE(eventually([&] { return done.load(); }, 3s));
    waiter.join();
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value(boost::json::object{{"answer", 42}}));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(arrived - delivered);
    EXPECT_LT(took, 2s);
    RecordProperty("wake_ms", static_cast<int>(took.count()));
    std::printf("[          ] answer arrived %lld ms after delivery\n", static_cast<long long>(took.count()));

    // Taken: a second answer has nobody to go to.
    EXPECT_FALSE(b->mailbox().deliver("mb-1", boost::json::value(1)));
    EXPECT_FALSE(a->mailbox().deliver("mb-1", boost::json::value(1)));
    EXPECT_FALSE(key_exists("mcp:mbo:{mb-1}"));
    EXPECT_FALSE(key_exists("mcp:mb:{mb-1}"));
}

TEST_F(RedisBackendTest, MailboxAnswerDeliveredBeforeTheWait) {
    auto a = node();
    auto b = node();
    MailboxWait wait_mb_early(a->mailbox(), "mb-early", 30s);
    ASSERT_TRUE(b->mailbox().deliver("mb-early", boost::json::value(boost::json::array{1, "two"})));
    const auto started = Clock::now();
    auto got = wait_mb_early.get(Clock::now() + 5s, {});
    EXPECT_LT(Clock::now() - started, 1s);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value(boost::json::array{1, "two"}));
}

TEST_F(RedisBackendTest, MailboxRefusesAnswersNobodyWaitsFor) {
    auto a = node();
    auto b = node();
    EXPECT_FALSE(b->mailbox().deliver("never-opened", boost::json::value(1)));
    EXPECT_FALSE(key_exists("mcp:mb:{never-opened}"));

    // A deadline already passed: nothing, at once, and the slot is closed.
    MailboxWait wait_mb_late(a->mailbox(), "mb-late", 30s);
    const auto started = Clock::now();
    EXPECT_FALSE(wait_mb_late.get(Clock::now() - 1s, {}).has_value());
    EXPECT_LT(Clock::now() - started, 1s);
    EXPECT_FALSE(b->mailbox().deliver("mb-late", boost::json::value(1)));

    // A short deadline ends the wait.
    MailboxWait wait_mb_short(a->mailbox(), "mb-short", 30s);
    const auto short_start = Clock::now();
    EXPECT_FALSE(wait_mb_short.get(Clock::now() + 150ms, {}).has_value());
    const auto waited = Clock::now() - short_start;
    EXPECT_GE(waited, 150ms);
    EXPECT_LT(waited, 2s);
    EXPECT_FALSE(b->mailbox().deliver("mb-short", boost::json::value(1)));

    // The slot expires with its ttl.
    MailboxWait wait_mb_ttl(a->mailbox(), "mb-ttl", 100ms);
    EXPECT_TRUE(eventually([&] { return !key_exists("mcp:mbo:{mb-ttl}"); }, 3s));
    EXPECT_FALSE(b->mailbox().deliver("mb-ttl", boost::json::value(1)));
}

TEST_F(RedisBackendTest, MailboxRefusesASecondAnswerBeforeTheFirstIsTaken) {
    // As the memory mailbox does: one request, one answer (ADR 0011: "as on one node").
    auto a = node();
    auto b = node();
    MailboxWait wait_mb_twice(a->mailbox(), "mb-twice", 30s);
    EXPECT_TRUE(b->mailbox().deliver("mb-twice", boost::json::value("first")));
    EXPECT_FALSE(b->mailbox().deliver("mb-twice", boost::json::value("second")));
    auto got = wait_mb_twice.get(Clock::now() + 2s, {});
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value("first"));
}

TEST_F(RedisBackendTest, MailboxWaitEndsOnStop) {
    auto a = node();
    MailboxWait wait_mb_stop(a->mailbox(), "mb-stop", 30s);
    std::stop_source stop;
    std::atomic<bool> done{false};
    std::optional<boost::json::value> got;
    std::jthread waiter([&] {
        got = wait_mb_stop.get(Clock::now() + 10s, stop.get_token());
        done = true;
    });
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(done.load());
    const auto stopped = Clock::now();
    stop.request_stop();
    ASSERT_TRUE(eventually([&] { return done.load(); }, 3s));
    EXPECT_LT(Clock::now() - stopped, 2s);
    waiter.join();
    EXPECT_FALSE(got.has_value());
    EXPECT_FALSE(a->mailbox().deliver("mb-stop", boost::json::value(1)));

    // Stopped before the wait began.
    MailboxWait wait_mb_stopped(a->mailbox(), "mb-stopped", 30s);
    const auto started = Clock::now();
    EXPECT_FALSE(wait_mb_stopped.get(Clock::now() + 10s, stop.get_token()).has_value());
    EXPECT_LT(Clock::now() - started, 1s);
}

// --- signals between nodes -------------------------------------------------------------------

TEST_F(RedisBackendTest, PublishedSignalsReachHandlersOnEveryNode) {
    Inbox on_a;  // the handlers' state outlives the nodes
    Inbox on_b;
    Inbox other_topic;
    auto a = node();
    auto b = node();
    a->bus()->subscribe("t1", on_a.handler());
    b->bus()->subscribe("t1", on_b.handler());
    b->bus()->subscribe("t2", other_topic.handler());
    wait_listening(2, {"t1"});
    wait_listening(1, {"t2"});

    a->bus()->publish("t1", "one");
    a->bus()->publish("t1", "two");
    b->bus()->publish("t1", "three");
    a->bus()->publish("t2", "elsewhere");
    const std::vector<std::string> expected{"one", "two", "three"};
    EXPECT_TRUE(eventually([&] { return on_b.size() >= 3 && on_a.size() >= 3 && other_topic.size() >= 1; }, 3s));
    EXPECT_EQ(on_b.got(), expected);
    EXPECT_EQ(on_a.got(), expected);  // a node hears its own signals too
    EXPECT_EQ(other_topic.got(), std::vector<std::string>{"elsewhere"});

    // Payloads are binary-safe.
    const std::string odd("a\nb\0c", 5);
    b->bus()->publish("t2", odd);
    EXPECT_TRUE(eventually([&] { return other_topic.size() >= 2; }, 3s));
    EXPECT_EQ(other_topic.got().back(), odd);
}

TEST_F(RedisBackendTest, UnsubscribeWaitsForTheRunningHandler) {
    std::atomic<bool> running{false};  // the handlers' state outlives the nodes
    std::atomic<int> calls{0};
    Inbox probe;
    auto a = node();
    auto b = node();
    const auto slow = b->bus()->subscribe("slow", [&](std::string_view) {
        running = true;
        ++calls;
        std::this_thread::sleep_for(300ms);
        running = false;
    });
    b->bus()->subscribe("probe", probe.handler());
    wait_listening(1, {"slow", "probe"});

    a->bus()->publish("slow", "1");
    ASSERT_TRUE(eventually([&] { return running.load(); }, 3s));
    b->bus()->unsubscribe(slow);
    EXPECT_FALSE(running.load()) << "unsubscribe returned while the handler ran";
    EXPECT_EQ(calls.load(), 1);

    // Signals after it: the handler is not called. Handlers run in order on one thread, so once the
    // probe arrived the "slow" signal published before it was handled (or not).
    a->bus()->publish("slow", "2");
    a->bus()->publish("probe", "p");
    ASSERT_TRUE(eventually([&] { return probe.size() == 1; }, 3s));
    EXPECT_EQ(calls.load(), 1);
    b->bus()->unsubscribe(slow);  // twice: harmless
}

TEST_F(RedisBackendTest, AFailingHandlerDoesNotStopTheOthers) {
    // Handlers may use the store, so they may throw StoreUnavailable; the other handlers of the
    // same signal, and later signals, still run.
    std::atomic<int> throwing{0};  // the handlers' state outlives the node
    Inbox after;
    auto a = node();
    a->bus()->subscribe("t", [&](std::string_view) {
        ++throwing;
        throw StoreUnavailable("Redis went away mid-handler");
    });
    a->bus()->subscribe("t", after.handler());
    wait_listening(1, {"t"});
    a->bus()->publish("t", "1");
    a->bus()->publish("t", "2");
    EXPECT_TRUE(eventually([&] { return throwing.load() == 2; }, 3s));
    EXPECT_TRUE(eventually([&] { return after.size() == 2; }, 1s));
    EXPECT_EQ(after.got(), (std::vector<std::string>{"1", "2"}));
}

TEST_F(RedisBackendTest, ReconnectHandlersRunAfterRedisRestarts) {
    std::atomic<int> reconnected_a{0};  // the handlers' state outlives the nodes
    std::atomic<int> reconnected_b{0};
    Inbox inbox;
    auto a = node();
    auto b = node();
    const auto id_a = a->bus()->on_reconnect([&] { ++reconnected_a; });
    b->bus()->on_reconnect([&] { ++reconnected_b; });
    b->bus()->subscribe("after", inbox.handler());
    wait_listening(2);
    wait_listening(1, {"after"});
    std::this_thread::sleep_for(50ms);  // the first subscription's own signal, if any, is handled
    const int before_a = reconnected_a.load();
    const int before_b = reconnected_b.load();

    redis_.restart();
    EXPECT_TRUE(eventually([&] { return reconnected_a.load() > before_a && reconnected_b.load() > before_b; }, 10s));

    // Signals flow again, without recreating anything.
    wait_listening(2);
    wait_listening(1, {"after"});
    a->bus()->publish("after", "x");
    EXPECT_TRUE(eventually([&] { return inbox.size() == 1; }, 3s));

    // An unsubscribed reconnect handler stays quiet.
    a->bus()->unsubscribe(id_a);
    const int now_a = reconnected_a.load();
    const int now_b = reconnected_b.load();
    redis_.restart();
    EXPECT_TRUE(eventually([&] { return reconnected_b.load() > now_b; }, 10s));
    EXPECT_EQ(reconnected_a.load(), now_a);
}

// --- Redis down ------------------------------------------------------------------------------

namespace {

// Each call fails with StoreUnavailable, promptly.
template <class F>
void fails_fast(const char* what, F call) {
    const auto started = Clock::now();
    EXPECT_TRUE(throws_store_unavailable(call)) << what;
    const auto took = Clock::now() - started;
    EXPECT_LT(took, 2s) << what << " took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                        << " ms";
}

}  // namespace

TEST_F(RedisBackendTest, WhileRedisIsDownCallsFailFastThenWorkAgain) {
    auto a = node();
    auto records = a->make_session_records(60s, 60s);
    auto journal = a->make_journal(JournalLimits{});
    ASSERT_EQ(records->insert(record_of("s-down"), kNoQuota), SessionRecords::Insert::inserted);
    journal->append("s-down/get", "x");

    redis_.stop();
    ASSERT_TRUE(eventually([&] { return throws_store_unavailable([&] { journal->exists("s-down/get"); }); }, 3s));

    fails_fast("insert", [&] { records->insert(record_of("s-new"), kNoQuota); });
    fails_fast("load", [&] { records->load("s-down", true); });
    fails_fast("apply level", [&] { records->apply("s-down", level_change(LogLevel::error)); });
    fails_fast("apply subscribe", [&] { records->apply("s-down", subscribe_change("file:///down.txt")); });
    fails_fast("remove", [&] { records->remove("s-down"); });
    fails_fast("exist", [&] { records->exist({"s-down"}); });
    fails_fast("subscribers", [&] { records->subscribers("file:///a.txt"); });
    fails_fast("append", [&] { journal->append("s-down/get", "y"); });
    fails_fast("after", [&] {
        bool complete = false;
        journal->after("s-down/get", "", complete);
    });
    fails_fast("exists", [&] { journal->exists("s-down/get"); });
    fails_fast("last_id", [&] { journal->last_id("s-down/get"); });
    fails_fast("drop", [&] { journal->drop("s-down/get"); });
    fails_fast("open", [&] { MailboxWait wait_mb_down(a->mailbox(), "mb-down", 30s); });
    fails_fast("deliver", [&] { a->mailbox().deliver("mb-down", boost::json::value(1)); });
    fails_fast("publish", [&] { a->bus()->publish("t", "x"); });

    // Back (empty: no persistence): the same backend works again.
    redis_.start();
    ASSERT_TRUE(eventually([&] { return !throws_store_unavailable([&] { journal->exists("s-down/get"); }); }, 10s));
    EXPECT_FALSE(records->load("s-down", true).has_value());  // its record did not survive the restart
    ASSERT_EQ(records->insert(record_of("s-after"), kNoQuota), SessionRecords::Insert::inserted);
    EXPECT_EQ(records->apply("s-after", level_change(LogLevel::alert)), 1);
    EXPECT_EQ(records->apply("s-after", subscribe_change("file:///a.txt")), 2);
    EXPECT_EQ(raw({"HGET", "mcp:s:{s-after}", "level"}).text, "alert");
    const auto id = journal->append("s-after/get", "z");
    EXPECT_EQ(journal->last_id("s-after/get"), id);
    MailboxWait wait_mb_after(a->mailbox(), "mb-after", 30s);
    EXPECT_TRUE(a->mailbox().deliver("mb-after", boost::json::value(7)));
    auto got = wait_mb_after.get(Clock::now() + 2s, {});
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value(7));
    EXPECT_NO_THROW(a->bus()->publish("t", "x"));
    EXPECT_EQ(records->subscribers("file:///a.txt"), std::vector<std::string>{"s-after"});
}

TEST_F(RedisBackendTest, ARedisDownAtStartupIsNotAnError) {
    redis_.stop();
    const auto started = Clock::now();
    std::shared_ptr<Backend> a;
    ASSERT_NO_THROW(a = make_backend(redis_.url()));
    EXPECT_LT(Clock::now() - started, 5s);
    ASSERT_NE(a->bus(), nullptr);
    auto journal = a->make_journal(JournalLimits{});
    fails_fast("exists", [&] { journal->exists("x"); });
    fails_fast("open", [&] { MailboxWait wait_mb(a->mailbox(), "mb", 30s); });

    redis_.start();
    ASSERT_TRUE(eventually([&] { return !throws_store_unavailable([&] { journal->exists("x"); }); }, 10s));
    EXPECT_FALSE(journal->exists("x"));
    journal->append("x", "1");
    EXPECT_TRUE(journal->exists("x"));
}

// --- teardown --------------------------------------------------------------------------------

TEST_F(RedisBackendTest, ANodeGoesAwayWhileSignalsKeepComing) {
    // Signals arriving while a backend is destroyed must not reach its destroyed parts.
    std::atomic<bool> flooding{true};
    std::jthread flood([&] {
        RedisClient publisher(RedisUrl::parse(redis_.url()), {});
        if (!publisher.wait_connected(5s)) return;
        std::vector<std::vector<std::string>> burst(50, std::vector<std::string>{"PUBLISH", "mcp:bus:flood:{0}", "x"});
        while (flooding.load()) {
            try {
                publisher.pipeline(burst);
            } catch (const StoreUnavailable&) {}
        }
    });
    for (int i = 0; i < 20; ++i) {
        Inbox inbox;
        auto c = node();
        c->bus()->subscribe("flood", inbox.handler());
        ASSERT_TRUE(eventually([&] { return inbox.size() > 0; }, 3s));
        c.reset();
    }
    flooding = false;
}
