// The Redis backend against a real redis-server, with two Backend instances on one Redis standing
// for two nodes: sessions adopted across nodes and written through, stale records, expiry, key
// TTLs, subscription sets, hostile records, SSE journals, mailboxes, signals between nodes, and
// Redis going away and coming back (docs/adr/0011-several-nodes.md).
#include "redis_server.hpp"
#include "server/session_impl.hpp"
#include "store/backend.hpp"
#include "store/redis/redis_client.hpp"

#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>

using namespace mcp;
using namespace mcp::detail;
using namespace std::chrono_literals;
using testing_support::RedisServer;
using Clock = std::chrono::steady_clock;

namespace {

// Polls `pred` until it holds or `within` passed; every wait in this file is bounded by one.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds within = 5s) {
    const auto until = Clock::now() + within;
    while (!pred()) {
        if (Clock::now() >= until) return pred();
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

// Runs `call`: true when it returned or threw StoreUnavailable, false when it threw anything else.
template <class F>
bool only_store_unavailable(F call) {
    try {
        call();
        return true;
    } catch (const StoreUnavailable&) {
        return true;
    } catch (...) {
        return false;
    }
}

template <class F>
bool throws_store_unavailable(F call) {
    try {
        call();
    } catch (const StoreUnavailable&) {
        return true;
    }
    return false;
}

// Counts the adoptions (the SessionFactory calls) of one node.
class Adopter {
public:
    Backend::SessionFactory factory() {
        return [this](const std::string& id) {
            std::lock_guard lock(mutex_);
            ids_.push_back(id);
            return std::make_shared<Session>(nullptr, id);
        };
    }
    std::vector<std::string> ids() {
        std::lock_guard lock(mutex_);
        return ids_;
    }

private:
    std::mutex mutex_;
    std::vector<std::string> ids_;
};

// Collects the payloads a cluster handler received.
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

std::pair<std::uint64_t, std::uint64_t> stream_id(const std::string& id) {
    const auto dash = id.find('-');
    std::pair<std::uint64_t, std::uint64_t> out{0, 0};
    if (dash == std::string::npos) return out;
    std::from_chars(id.data(), id.data() + dash, out.first);
    std::from_chars(id.data() + dash + 1, id.data() + id.size(), out.second);
    return out;
}

std::shared_ptr<Session> make_session(const std::string& id) {
    auto session = std::make_shared<Session>(nullptr, id);
    auto& impl = session->impl();
    impl.owner = "alice";
    auto client = std::make_shared<ClientState>();
    client->protocol_version = "2025-11-25";
    client->capabilities = boost::json::object{{"elicitation", boost::json::object{}},
                                               {"roots", boost::json::object{{"listChanged", true}}}};
    client->info.name = "test-client";
    client->info.version = "1.2.3";
    client->info.title = "Test Client";
    impl.set_client(std::move(client));
    impl.log_level.store(LogLevel::debug);
    return session;
}

// A change as the core makes it: to the object first, then written through.
void set_level(SessionStore& store, Session& session, LogLevel level) {
    session.impl().log_level.store(level);
    store.record(session, SessionChange{SessionChange::Kind::log_level, level, {}});
}
void subscribe(SessionStore& store, Session& session, const std::string& uri) {
    session.impl().subscribe(uri);
    store.record(session, SessionChange{SessionChange::Kind::subscribe, {}, uri});
}
void unsubscribe(SessionStore& store, Session& session, const std::string& uri) {
    session.impl().unsubscribe(uri);
    store.record(session, SessionChange{SessionChange::Kind::unsubscribe, {}, uri});
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

class RedisBackendTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(raw_.wait_connected(5s)); }

    // A node, once it reaches Redis: a freshly started redis-server may still refuse the first
    // connection, and a test must not begin with its node still retrying.
    std::shared_ptr<Backend> node() {
        auto backend = make_backend(redis_.url());
        EXPECT_NE(backend->cluster(), nullptr);
        EXPECT_TRUE(eventually([&] {
            try {
                backend->cluster()->subscribers("connected?");
                return true;
            } catch (const StoreUnavailable&) {
                return false;
            }
        }));
        return backend;
    }

    // Two nodes on the test's Redis, each with a session store; sessions adopted by either are
    // recorded in one Adopter.
    struct TwoNodes {
        explicit TwoNodes(RedisBackendTest& test)
            : a(test.node()),
              b(test.node()),
              store_a(a->make_session_store(100, 60s, adopter.factory())),
              store_b(b->make_session_store(100, 60s, adopter.factory())) {}
        std::shared_ptr<Backend> a;
        std::shared_ptr<Backend> b;
        Adopter adopter;
        std::unique_ptr<SessionStore> store_a;
        std::unique_ptr<SessionStore> store_b;
    };

    // Waits until `n` nodes listen to the signal bus, so what is published from now on reaches them.
    void wait_listening(std::size_t n) {
        auto listening = [&] {
            const auto list = raw({"CLIENT", "LIST"}).text;
            std::size_t count = 0;
            for (auto at = list.find(" psub=1 "); at != std::string::npos; at = list.find(" psub=1 ", at + 1)) ++count;
            return count >= n;
        };
        ASSERT_TRUE(eventually(listening)) << "nodes did not subscribe to the bus";
    }

    // A command on a connection of the test's own; after a restart it waits (bounded) for the
    // connection to come back.
    RespValue raw(std::vector<std::string> args) {
        const auto until = Clock::now() + 5s;
        while (true) {
            try {
                return raw_.command(args);
            } catch (const StoreUnavailable&) {
                if (Clock::now() >= until) throw;
                std::this_thread::sleep_for(10ms);
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
        const auto reply = raw({"HGET", "mcp:s:" + id, "rev"});
        return reply.is_nil() ? -1 : std::stoll(reply.text);
    }

    RedisServer redis_;
    // Generous: it moves the multi-megabyte values of the hostile records, also under sanitizers.
    RedisClient raw_{RedisUrl::parse(redis_.url()), {std::chrono::milliseconds(1000), std::chrono::milliseconds(30'000)}};
};

}  // namespace

// --- choosing the store ----------------------------------------------------------------------

TEST(StoreUrl, MemoryAndEmptyMeanOneNode) {
    for (const char* url : {"memory", ""}) {
        EXPECT_NO_THROW(check_store_url(url)) << url;
        auto backend = make_backend(url);
        ASSERT_NE(backend, nullptr) << url;
        EXPECT_EQ(backend->cluster(), nullptr) << url;
    }
}

TEST(StoreUrl, AcceptsRedisUrls) {
    for (const char* url : {"redis://127.0.0.1", "redis://127.0.0.1:6379", "redis://localhost:6380/2", "redis://:pw@db.internal:7000/15",
                            "redis://[::1]:7000/0", "redis://h/0"}) {
        EXPECT_NO_THROW(check_store_url(url)) << url;
    }
}

TEST(StoreUrl, RefusesWhatIsNotAStoreUrl) {
    for (const char* url : {"redis://h:0", "redis://h:65536", "redis://h:99999", "redis://h:12a", "redis://h:", "redis://h:-1",
                            "redis://h/x", "redis://h/-1", "redis://h/1x", "redis://h/99999999999", "http://h:6379",
                            "rediss://h:6379", "REDIS://h", "redis:/h", "redis:h", "Memory", "memory ", " memory", "garbage",
                            "\x01\xff", "mem"}) {
        EXPECT_THROW(check_store_url(url), std::invalid_argument) << url;
        EXPECT_THROW(make_backend(url), std::invalid_argument) << url;  // without connecting to anything
    }
}

TEST(StoreUrl, ErrorsNeverEchoThePassword) {
    for (const char* url : {"redis://:hunter2@h:bad", "redis://:hunter2@h:0", "redis://:hunter2@h:70000", "redis://:hunter2@h/db",
                            "redis://user:hunter2@h:1x/0", "rediss://:hunter2@h:6379", "http://user:hunter2@h",
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

TEST_F(RedisBackendTest, AnotherNodeAdoptsASessionWithItsState) {
    auto a = node();
    auto b = node();
    Adopter adopter_a;
    Adopter adopter_b;
    auto store_a = a->make_session_store(100, 60s, adopter_a.factory());
    auto store_b = b->make_session_store(100, 60s, adopter_b.factory());

    auto original = make_session("s-adopt");
    ASSERT_TRUE(store_a->insert(original));
    EXPECT_FALSE(store_a->insert(make_session("s-adopt")));  // taken
    subscribe(*store_a, *original, "file:///a.txt");
    EXPECT_EQ(store_a->size(), 1u);
    EXPECT_EQ(store_b->size(), 0u);
    EXPECT_EQ(store_a->find("s-adopt"), original);  // the local object, not a copy
    EXPECT_TRUE(adopter_a.ids().empty());

    auto adopted = store_b->find("s-adopt");
    ASSERT_NE(adopted, nullptr);
    EXPECT_NE(adopted, original);
    EXPECT_EQ(adopter_b.ids(), std::vector<std::string>{"s-adopt"});
    EXPECT_EQ(adopted->id(), "s-adopt");
    EXPECT_EQ(adopted->owner(), "alice");
    EXPECT_EQ(adopted->log_level(), LogLevel::debug);
    ASSERT_NE(adopted->client(), nullptr);
    EXPECT_EQ(adopted->client()->protocol_version, "2025-11-25");
    EXPECT_EQ(adopted->client()->capabilities, original->client()->capabilities);
    EXPECT_EQ(adopted->client()->info.name, "test-client");
    EXPECT_EQ(adopted->client()->info.version, "1.2.3");
    EXPECT_EQ(adopted->client()->info.title, "Test Client");
    EXPECT_TRUE(adopted->subscribed("file:///a.txt"));
    EXPECT_FALSE(adopted->subscribed("file:///b.txt"));
    EXPECT_EQ(store_b->size(), 1u);

    // Served again on B: the same object, no second adoption.
    EXPECT_EQ(store_b->find("s-adopt"), adopted);
    EXPECT_EQ(adopter_b.ids().size(), 1u);
    EXPECT_EQ(store_b->find("unknown"), nullptr);
    EXPECT_EQ(adopter_b.ids().size(), 1u);
    EXPECT_EQ(store_b->size(), 1u);
}

TEST_F(RedisBackendTest, AChangeRecordedOnOneNodeReachesTheOther) {
    auto a = node();
    auto b = node();
    Adopter adopter_a;
    Adopter adopter_b;
    auto store_a = a->make_session_store(100, 60s, adopter_a.factory());
    auto store_b = b->make_session_store(100, 60s, adopter_b.factory());
    wait_listening(2);

    auto on_a = make_session("s-change");
    ASSERT_TRUE(store_a->insert(on_a));
    EXPECT_EQ(revision("s-change"), 0);
    subscribe(*store_a, *on_a, "file:///a.txt");
    EXPECT_EQ(revision("s-change"), 1);
    auto on_b = store_b->find("s-change");
    ASSERT_NE(on_b, nullptr);
    ASSERT_TRUE(on_b->subscribed("file:///a.txt"));

    // B changes the log level and the subscriptions, as the core would, and writes them through.
    set_level(*store_b, *on_b, LogLevel::error);
    subscribe(*store_b, *on_b, "file:///b.txt");
    unsubscribe(*store_b, *on_b, "file:///a.txt");
    EXPECT_EQ(revision("s-change"), 4);
    EXPECT_EQ(raw({"HGET", "mcp:s:s-change", "level"}).text, "error");
    EXPECT_EQ(members("mcp:ss:s-change"), std::vector<std::string>{"file:///b.txt"});

    // A reloads it on the "changed" signal, without being asked...
    EXPECT_TRUE(eventually([&] { return on_a->log_level() == LogLevel::error && on_a->subscribed("file:///b.txt"); }));
    // ...and on find.
    auto found = store_a->find("s-change");
    ASSERT_EQ(found, on_a);
    EXPECT_EQ(found->log_level(), LogLevel::error);
    EXPECT_TRUE(found->subscribed("file:///b.txt"));
    EXPECT_FALSE(found->subscribed("file:///a.txt"));
    EXPECT_EQ(found->owner(), "alice");
    ASSERT_NE(found->client(), nullptr);
    EXPECT_EQ(found->client()->info.name, "test-client");

    // And back: A changes, B sees it.
    set_level(*store_a, *on_a, LogLevel::warning);
    EXPECT_EQ(revision("s-change"), 5);
    EXPECT_EQ(store_b->find("s-change")->log_level(), LogLevel::warning);
    EXPECT_TRUE(adopter_a.ids().empty());
    EXPECT_EQ(adopter_b.ids().size(), 1u);

    // A change to a session deleted meanwhile does not bring it back.
    ASSERT_NE(store_a->remove("s-change"), nullptr);
    EXPECT_NO_THROW(set_level(*store_b, *on_b, LogLevel::alert));
    EXPECT_NO_THROW(subscribe(*store_b, *on_b, "file:///c.txt"));
    EXPECT_EQ(keys("mcp:*"), std::vector<std::string>{});
}

TEST_F(RedisBackendTest, ChangesMadeAtTheSameTimeOnTwoNodesAllReachBoth) {
    // B changes the level while A's signal worker is busy (so A has not reloaded yet), then A
    // subscribes. The store holds both changes; so must both nodes' objects.
    std::mutex m;  // the handlers' state outlives the nodes
    std::condition_variable cv;
    bool blocked = false;
    bool released = false;
    Inbox probe;
    TwoNodes nodes(*this);
    auto& [a, b, adopter, store_a, store_b] = nodes;
    a->cluster()->subscribe("probe", probe.handler());
    a->cluster()->subscribe("block", [&](std::string_view) {
        std::unique_lock lock(m);
        blocked = true;
        cv.notify_all();
        cv.wait_for(lock, 5s, [&] { return released; });
    });
    wait_listening(2);

    auto on_a = make_session("s-race");
    ASSERT_TRUE(store_a->insert(on_a));
    auto on_b = store_b->find("s-race");
    ASSERT_NE(on_b, nullptr);

    a->cluster()->publish("block", "");
    {
        std::unique_lock lock(m);
        ASSERT_TRUE(cv.wait_for(lock, 3s, [&] { return blocked; }));
    }
    set_level(*store_b, *on_b, LogLevel::error);           // rev 1, A not told yet
    subscribe(*store_a, *on_a, "file:///race.txt");        // rev 2
    {
        std::lock_guard lock(m);
        released = true;
    }
    cv.notify_all();

    EXPECT_EQ(revision("s-race"), 2);
    EXPECT_EQ(raw({"HGET", "mcp:s:s-race", "level"}).text, "error");
    EXPECT_EQ(members("mcp:ss:s-race"), std::vector<std::string>{"file:///race.txt"});
    EXPECT_TRUE(eventually([&] { return on_b->subscribed("file:///race.txt"); }, 3s));
    EXPECT_EQ(on_b->log_level(), LogLevel::error);

    // A handles the "changed" signals (published before the probe), then serves the session again.
    a->cluster()->publish("probe", "");
    ASSERT_TRUE(eventually([&] { return probe.size() == 1; }, 3s));
    auto found = store_a->find("s-race");
    ASSERT_EQ(found, on_a);
    EXPECT_TRUE(found->subscribed("file:///race.txt"));
    EXPECT_EQ(found->log_level(), LogLevel::error) << "A lost B's concurrent change";
}

TEST_F(RedisBackendTest, AStaleRecordNeverUndoesNewerState) {
    TwoNodes nodes(*this);
    auto& [a, b, adopter, store_a, store_b] = nodes;

    auto on_a = make_session("s-stale");
    ASSERT_TRUE(store_a->insert(on_a));
    auto on_b = store_b->find("s-stale");
    ASSERT_NE(on_b, nullptr);

    set_level(*store_a, *on_a, LogLevel::warning);
    subscribe(*store_a, *on_a, "file:///new.txt");
    ASSERT_EQ(revision("s-stale"), 2);
    ASSERT_EQ(store_b->find("s-stale")->log_level(), LogLevel::warning);
    ASSERT_TRUE(on_b->subscribed("file:///new.txt"));

    // An older state shows up (as a reload that read before a change was written would see it):
    // neither node goes back to it.
    raw({"HSET", "mcp:s:s-stale", "rev", "1", "level", "debug"});
    raw({"SREM", "mcp:ss:s-stale", "file:///new.txt"});
    EXPECT_EQ(store_b->find("s-stale")->log_level(), LogLevel::warning);
    EXPECT_TRUE(on_b->subscribed("file:///new.txt"));
    EXPECT_EQ(store_a->find("s-stale")->log_level(), LogLevel::warning);
    EXPECT_TRUE(on_a->subscribed("file:///new.txt"));

    // A newer one is taken.
    raw({"HSET", "mcp:s:s-stale", "rev", "3", "level", "critical"});
    EXPECT_EQ(store_b->find("s-stale")->log_level(), LogLevel::critical);
    EXPECT_FALSE(on_b->subscribed("file:///new.txt"));
}

TEST_F(RedisBackendTest, RemovedOnOneNodeIsGoneOnTheOther) {
    TwoNodes nodes(*this);
    auto& [a, b, adopter, store_a, store_b] = nodes;

    auto on_a = make_session("s-remove");
    ASSERT_TRUE(store_a->insert(on_a));
    subscribe(*store_a, *on_a, "file:///a.txt");
    ASSERT_NE(store_b->find("s-remove"), nullptr);
    ASSERT_EQ(members("mcp:sub:file:///a.txt"), std::vector<std::string>{"s-remove"});

    EXPECT_EQ(store_a->remove("s-remove"), on_a);
    // B may have reloaded the record when A's subscription signal arrived; from here on nothing
    // is left to adopt.
    const auto adopted = adopter.ids().size();
    EXPECT_EQ(keys("mcp:*"), std::vector<std::string>{});  // record, its subscriptions, the subscriber set
    EXPECT_EQ(store_a->size(), 0u);
    EXPECT_EQ(store_a->find("s-remove"), nullptr);
    EXPECT_EQ(store_a->remove("s-remove"), nullptr);

    // B still counts its copy unless that late "changed" signal already found the record gone.
    EXPECT_LE(store_b->size(), 1u);
    EXPECT_EQ(store_b->find("s-remove"), nullptr);
    EXPECT_EQ(store_b->size(), 0u);
    EXPECT_EQ(store_b->remove("s-remove"), nullptr);
    EXPECT_EQ(adopter.ids().size(), adopted);

    // Removed on a node that never held it.
    ASSERT_TRUE(store_a->insert(make_session("s-remote")));
    auto removed = store_b->remove("s-remote");
    ASSERT_NE(removed, nullptr);
    EXPECT_EQ(removed->id(), "s-remote");
    EXPECT_FALSE(key_exists("mcp:s:s-remote"));
    EXPECT_EQ(store_a->find("s-remote"), nullptr);
}

TEST_F(RedisBackendTest, ExpireReturnsTheSessionsWhoseRecordExpired) {
    auto a = node();
    auto b = node();
    Adopter adopter;
    auto store_a = a->make_session_store(100, 300ms, adopter.factory());
    auto store_b = b->make_session_store(100, 300ms, adopter.factory());

    auto idle = make_session("s-idle");
    auto busy = make_session("s-busy");
    ASSERT_TRUE(store_a->insert(idle));
    ASSERT_TRUE(store_a->insert(busy));
    auto idle_on_b = store_b->find("s-idle");
    ASSERT_NE(idle_on_b, nullptr);
    EXPECT_GT(pttl("mcp:s:s-idle"), 0);
    EXPECT_LE(pttl("mcp:s:s-idle"), 300);
    EXPECT_TRUE(store_a->expire().empty());

    // s-busy is used; s-idle is not, and its record expires.
    EXPECT_TRUE(eventually([&] {
        EXPECT_NE(store_a->find("s-busy"), nullptr);
        return !key_exists("mcp:s:s-idle");
    }));
    EXPECT_TRUE(key_exists("mcp:s:s-busy"));

    const auto gone_a = store_a->expire();
    ASSERT_EQ(gone_a.size(), 1u);
    EXPECT_EQ(gone_a[0], idle);
    EXPECT_EQ(store_a->size(), 1u);
    EXPECT_TRUE(store_a->expire().empty());

    const auto gone_b = store_b->expire();
    ASSERT_EQ(gone_b.size(), 1u);
    EXPECT_EQ(gone_b[0], idle_on_b);
    EXPECT_EQ(store_b->size(), 0u);

    EXPECT_EQ(store_a->find("s-idle"), nullptr);
    EXPECT_EQ(store_a->find("s-busy"), busy);
}

TEST_F(RedisBackendTest, ExpireDoesNotDropSessionsWhenRedisAnswersErrors) {
    // A Redis that answers errors (here: an ACL refusing EXISTS; in production, -LOADING while a
    // restarted Redis reads its dump) must not be taken for "every session expired".
    auto a = node();
    Adopter adopter;
    auto store = a->make_session_store(100, 60s, adopter.factory());
    ASSERT_TRUE(store->insert(make_session("s-kept")));
    ASSERT_EQ(raw({"ACL", "SETUSER", "default", "-exists"}).text, "OK");
    std::vector<std::shared_ptr<Session>> gone;
    EXPECT_TRUE(only_store_unavailable([&] { gone = store->expire(); }));
    ASSERT_EQ(raw({"ACL", "SETUSER", "default", "+@all"}).text, "OK");
    EXPECT_TRUE(gone.empty()) << "expire() dropped a live session on an error reply";
    EXPECT_EQ(store->size(), 1u);
    EXPECT_TRUE(key_exists("mcp:s:s-kept"));
}

TEST_F(RedisBackendTest, EveryKeyTheStoreWritesHasATimeToLive) {
    TwoNodes nodes(*this);
    auto& [a, b, adopter, store_a, store_b] = nodes;
    auto journal = a->make_journal(JournalLimits{.ttl = 60s});

    auto session = make_session("s-ttl");
    ASSERT_TRUE(store_a->insert(session));
    subscribe(*store_a, *session, "file:///a.txt");
    auto on_b = store_b->find("s-ttl");
    ASSERT_NE(on_b, nullptr);
    subscribe(*store_b, *on_b, "file:///b.txt");
    set_level(*store_b, *on_b, LogLevel::notice);
    journal->append("s-ttl/get", "{}");
    a->mailbox().open("s-ttl-mb", 30s);
    ASSERT_TRUE(b->mailbox().deliver("s-ttl-mb", boost::json::value(1)));

    a->mailbox().open("s-ttl-mb2", 30s);

    auto all = keys("mcp:*");
    std::erase(all, "mcp:mbo:s-ttl-mb");  // an answered slot's marker may go with the answer
    EXPECT_EQ(all, (std::vector<std::string>{"mcp:j:s-ttl/get", "mcp:mb:s-ttl-mb", "mcp:mbo:s-ttl-mb2", "mcp:s:s-ttl", "mcp:ss:s-ttl",
                                             "mcp:sub:file:///a.txt", "mcp:sub:file:///b.txt"}));
    for (const auto& key : all) {
        const auto ttl = pttl(key);
        EXPECT_GT(ttl, 0) << key;
        EXPECT_LE(ttl, 600'000) << key;
    }
    EXPECT_GT(pttl("mcp:s:s-ttl"), 50'000);
    EXPECT_LE(pttl("mcp:mbo:s-ttl-mb2"), 30'000);

    // Using the session refreshes its record, its subscriptions and their subscriber sets.
    for (const auto& key : {"mcp:s:s-ttl", "mcp:ss:s-ttl", "mcp:sub:file:///a.txt", "mcp:sub:file:///b.txt"}) {
        raw({"PEXPIRE", key, "5000"});
    }
    ASSERT_NE(store_a->find("s-ttl"), nullptr);
    for (const auto& key : {"mcp:s:s-ttl", "mcp:ss:s-ttl", "mcp:sub:file:///a.txt", "mcp:sub:file:///b.txt"}) {
        EXPECT_GT(pttl(key), 50'000) << key;
    }

    // A change keeps the time to live.
    set_level(*store_a, *session, LogLevel::info);
    unsubscribe(*store_a, *session, "file:///a.txt");
    for (const auto& key : keys("mcp:*")) EXPECT_GT(pttl(key), 0) << key;
}

TEST_F(RedisBackendTest, SubscriptionSetsFollowSubscribeAndUnsubscribe) {
    TwoNodes nodes(*this);
    auto& [a, b, adopter, store_a, store_b] = nodes;
    const std::string uri = "file:///shared.txt";
    const std::string set = "mcp:sub:" + uri;

    auto s1 = make_session("s-sub-1");
    ASSERT_TRUE(store_a->insert(s1));
    auto s2 = make_session("s-sub-2");
    ASSERT_TRUE(store_b->insert(s2));
    EXPECT_FALSE(key_exists(set));
    subscribe(*store_a, *s1, uri);
    EXPECT_EQ(members(set), std::vector<std::string>{"s-sub-1"});

    subscribe(*store_b, *s2, uri);
    subscribe(*store_b, *s2, uri);  // twice: one membership
    const std::vector<std::string> both{"s-sub-1", "s-sub-2"};
    EXPECT_EQ(members(set), both);
    EXPECT_EQ(sorted(a->cluster()->subscribers(uri)), both);
    EXPECT_EQ(sorted(b->cluster()->subscribers(uri)), both);
    EXPECT_TRUE(a->cluster()->subscribers("file:///nobody.txt").empty());

    unsubscribe(*store_a, *s1, uri);
    EXPECT_EQ(members(set), std::vector<std::string>{"s-sub-2"});
    EXPECT_EQ(b->cluster()->subscribers(uri), std::vector<std::string>{"s-sub-2"});
    unsubscribe(*store_a, *s1, uri);  // not subscribed: harmless
    EXPECT_EQ(members(set), std::vector<std::string>{"s-sub-2"});

    // s2 unsubscribes on the other node, which adopts it.
    auto s2_on_a = store_a->find("s-sub-2");
    ASSERT_NE(s2_on_a, nullptr);
    ASSERT_TRUE(s2_on_a->subscribed(uri));
    unsubscribe(*store_a, *s2_on_a, uri);
    subscribe(*store_a, *s2_on_a, "file:///other.txt");
    EXPECT_FALSE(key_exists(set));
    EXPECT_TRUE(a->cluster()->subscribers(uri).empty());
    EXPECT_EQ(b->cluster()->subscribers("file:///other.txt"), std::vector<std::string>{"s-sub-2"});

    // Removing a session takes it out of its sets.
    ASSERT_NE(store_b->remove("s-sub-2"), nullptr);
    EXPECT_TRUE(a->cluster()->subscribers("file:///other.txt").empty());
}

TEST_F(RedisBackendTest, SubscribersDoesNotListExpiredSessions) {
    // s-gone expires while s-kept, subscribed to the same resource, keeps the subscriber set
    // alive: the set must not go on naming (and growing with) sessions that no longer exist.
    auto a = node();
    Adopter adopter;
    auto store = a->make_session_store(100, 300ms, adopter.factory());
    const std::string uri = "file:///popular.txt";
    auto gone = make_session("s-gone");
    auto kept = make_session("s-kept");
    ASSERT_TRUE(store->insert(gone));
    ASSERT_TRUE(store->insert(kept));
    subscribe(*store, *gone, uri);
    subscribe(*store, *kept, uri);
    ASSERT_TRUE(eventually([&] {
        EXPECT_NE(store->find("s-kept"), nullptr);
        return !key_exists("mcp:s:s-gone");
    }));
    ASSERT_EQ(store->expire().size(), 1u);
    ASSERT_NE(store->find("s-kept"), nullptr);
    EXPECT_EQ(a->cluster()->subscribers(uri), std::vector<std::string>{"s-kept"});
}

// --- hostile records -------------------------------------------------------------------------

TEST_F(RedisBackendTest, HostileRecordsAreRefusedOrIgnoredNeverFatal) {
    auto a = node();
    Adopter adopter;
    auto store = a->make_session_store(1000, 60s, adopter.factory());

    const std::string huge(2 << 20, 'x');
    std::string deep;
    for (int i = 0; i < 100'000; ++i) deep += '[';
    const std::string good_client = "{\"owner\":\"a\",\"v\":\"2025-11-25\",\"caps\":{},\"info\":{\"name\":\"n\"}}";
    using Fields = std::vector<std::pair<std::string, std::string>>;
    struct Hostile {
        Fields fields;
        std::vector<std::string> subscriptions;
        bool refused;  // find must return nullptr
    };
    const std::vector<Hostile> records{
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
        {{{"rev", "0"}, {"level", "info"}}, {}, true},          // no client
        {{{"other", "x"}}, {}, true},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"" + huge + "\"}"}}, {}, false},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"a\",\"v\":\"" + huge + "\",\"caps\":{\"x\":\"" + huge + "\"}}"}}, {}, false},
        {{{"rev", "0"}, {"level", "info"}, {"client", good_client}}, {huge, "", std::string("\x00\r\n", 3)}, false},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"a\",\"v\":5,\"caps\":[],\"info\":\"x\"}"}}, {}, false},
        {{{"rev", "0"}, {"level", "info"}, {"client", "{\"owner\":\"a\",\"v\":\"x\",\"caps\":7,\"info\":{\"name\":3,\"version\":[]}}"}}, {}, false},
        {{{"rev", "abc"}, {"level", "info"}, {"client", good_client}}, {}, false},
        {{{"rev", "-5"}, {"level", "info"}, {"client", good_client}}, {}, false},
        {{{"rev", "1.5"}, {"level", "info"}, {"client", good_client}}, {}, false},
        {{{"rev", "99999999999999999999999"}, {"level", "info"}, {"client", good_client}}, {}, false},
        {{{"rev", "9223372036854775807"}, {"level", "info"}, {"client", good_client}}, {}, false},
        {{{"rev", huge}, {"level", "info"}, {"client", good_client}, {"extra", huge}}, {}, false},
    };
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto id = "s-hostile-" + std::to_string(i);
        std::vector<std::string> hset{"HSET", "mcp:s:" + id};
        for (const auto& [field, value] : records[i].fields) {
            hset.push_back(field);
            hset.push_back(value);
        }
        ASSERT_EQ(raw(hset).integer, static_cast<std::int64_t>(records[i].fields.size())) << i;
        if (!records[i].subscriptions.empty()) {
            std::vector<std::string> sadd{"SADD", "mcp:ss:" + id};
            sadd.insert(sadd.end(), records[i].subscriptions.begin(), records[i].subscriptions.end());
            raw(sadd);
        }
        std::shared_ptr<Session> found;
        EXPECT_TRUE(only_store_unavailable([&] { found = store->find(id); })) << i;
        if (records[i].refused) {
            EXPECT_EQ(found, nullptr) << i;
        } else if (found) {
            EXPECT_EQ(found->id(), id) << i;
            EXPECT_TRUE(only_store_unavailable([&] { set_level(*store, *found, LogLevel::error); })) << i;
            EXPECT_TRUE(only_store_unavailable([&] { subscribe(*store, *found, "file:///h.txt"); })) << i;
            EXPECT_TRUE(only_store_unavailable([&] { store->find(id); })) << i;
        }
        EXPECT_TRUE(only_store_unavailable([&] { store->remove(id); })) << i;
        EXPECT_TRUE(only_store_unavailable([&] { store->expire(); })) << i;
    }

    // In a usable record, fields of the wrong type are ignored.
    raw({"HSET", "mcp:s:s-partial", "rev", "0", "level", "notice", "client", "{\"owner\":\"bob\",\"v\":5,\"caps\":[]}"});
    raw({"SADD", "mcp:ss:s-partial", "file:///ok"});
    auto partial = store->find("s-partial");
    ASSERT_NE(partial, nullptr);
    EXPECT_EQ(partial->owner(), "bob");
    EXPECT_EQ(partial->log_level(), LogLevel::notice);
    EXPECT_TRUE(partial->subscribed("file:///ok"));
    EXPECT_EQ(partial->client(), nullptr);  // "v" was not a string

    // Keys of the wrong type: Redis answers WRONGTYPE, which is the store failing, not a crash.
    raw({"SET", "mcp:s:s-string", "{}"});
    EXPECT_TRUE(only_store_unavailable([&] { store->find("s-string"); }));
    EXPECT_TRUE(only_store_unavailable([&] { store->remove("s-string"); }));
    raw({"HSET", "mcp:s:s-badset", "rev", "0", "level", "info", "client", good_client});
    raw({"SET", "mcp:ss:s-badset", "x"});
    EXPECT_TRUE(only_store_unavailable([&] { store->find("s-badset"); }));
    EXPECT_TRUE(only_store_unavailable([&] { store->remove("s-badset"); }));
    auto wrong_set = make_session("s-wrongset");
    ASSERT_TRUE(store->insert(wrong_set));
    raw({"HSET", "mcp:sub:file:///wrong.txt", "f", "v"});  // a subscriber "set" of the wrong type
    EXPECT_TRUE(only_store_unavailable([&] { subscribe(*store, *wrong_set, "file:///wrong.txt"); }));
    EXPECT_TRUE(only_store_unavailable([&] { a->cluster()->subscribers("file:///wrong.txt"); }));

    // The store still works afterwards.
    ASSERT_TRUE(store->insert(make_session("s-fine")));
    EXPECT_NE(store->find("s-fine"), nullptr);
}

TEST_F(RedisBackendTest, ARecordWithoutAValidRevisionIsRefused) {
    // A record whose revision is missing or unreadable is malformed: adopting it would give a
    // session whose fields were never loaded (owner "", the anonymous principal).
    auto a = node();
    Adopter adopter;
    auto store = a->make_session_store(100, 60s, adopter.factory());
    const std::string client = "{\"owner\":\"alice\"}";
    raw({"HSET", "mcp:s:s-norev", "level", "info", "client", client});
    raw({"HSET", "mcp:s:s-badrev", "rev", "x", "level", "info", "client", client});
    for (const char* id : {"s-norev", "s-badrev"}) {
        auto found = store->find(id);
        if (found) {
            EXPECT_EQ(found->owner(), "alice") << id << ": adopted without its fields";
        }
    }
}

TEST_F(RedisBackendTest, ARecordAtTheLastRevisionDoesNotOverflowIt) {
    // A record stamped with the largest revision (corruption, or a hostile write): a later change
    // may fail (StoreUnavailable) but must not wrap around, and a node that sees it must converge.
    TwoNodes nodes(*this);
    auto& [a, b, adopter, store_a, store_b] = nodes;
    ASSERT_TRUE(store_a->insert(make_session("s-max")));
    raw({"HSET", "mcp:s:s-max", "rev", std::to_string(std::numeric_limits<std::int64_t>::max())});

    auto on_b = store_b->find("s-max");
    if (on_b == nullptr) return;  // refusing such a record is fine too
    bool stored = false;
    ASSERT_TRUE(only_store_unavailable([&] {
        set_level(*store_b, *on_b, LogLevel::critical);
        stored = true;
    }));
    if (!stored) return;
    EXPECT_GE(revision("s-max"), 0);
    auto on_a = store_a->find("s-max");
    ASSERT_NE(on_a, nullptr);
    EXPECT_EQ(on_a->log_level(), LogLevel::critical);
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
    const auto length = raw({"XLEN", "mcp:j:" + stream}).integer;
    // MAXLEN ~: Redis trims whole nodes (100 entries by default), so about the limit, never far above.
    EXPECT_GE(length, 100);
    EXPECT_LT(length, 200);
    bool complete = false;
    auto kept = journal->after(stream, "", complete);
    ASSERT_EQ(kept.size(), static_cast<std::size_t>(length));
    EXPECT_EQ(kept.back().id, last);
    EXPECT_EQ(kept.back().data, "999");
    for (std::size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept[i].data, std::to_string(1000 - kept.size() + i));
    EXPECT_GT(pttl("mcp:j:" + stream), 50'000);
    EXPECT_LE(pttl("mcp:j:" + stream), 60'000);

    auto short_lived = a->make_journal(JournalLimits{.ttl = 200ms});
    short_lived->append("s-trim/post", "x");
    const auto ttl = pttl("mcp:j:s-trim/post");
    EXPECT_GT(ttl, 0);
    EXPECT_LE(ttl, 200);
    EXPECT_TRUE(eventually([&] { return !short_lived->exists("s-trim/post"); }, 3s));
}

// --- mailboxes -------------------------------------------------------------------------------

TEST_F(RedisBackendTest, MailboxAnswerDeliveredOnAnotherNodeWakesTheWaiter) {
    auto a = node();
    auto b = node();
    wait_listening(2);

    a->mailbox().open("mb-1", 30s);
    std::optional<boost::json::value> got;
    std::atomic<bool> done{false};
    Clock::time_point arrived;
    std::jthread waiter([&] {
        got = a->mailbox().wait("mb-1", Clock::now() + 10s, {});
        arrived = Clock::now();
        done = true;
    });
    std::this_thread::sleep_for(100ms);  // the waiter polled once and now sleeps on its slot
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
    EXPECT_FALSE(key_exists("mcp:mbo:mb-1"));
    EXPECT_FALSE(key_exists("mcp:mb:mb-1"));
}

TEST_F(RedisBackendTest, MailboxAnswerDeliveredBeforeTheWait) {
    auto a = node();
    auto b = node();
    a->mailbox().open("mb-early", 30s);
    ASSERT_TRUE(b->mailbox().deliver("mb-early", boost::json::value(boost::json::array{1, "two"})));
    const auto started = Clock::now();
    auto got = a->mailbox().wait("mb-early", Clock::now() + 5s, {});
    EXPECT_LT(Clock::now() - started, 1s);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value(boost::json::array{1, "two"}));
}

TEST_F(RedisBackendTest, MailboxRefusesAnswersNobodyWaitsFor) {
    auto a = node();
    auto b = node();
    EXPECT_FALSE(b->mailbox().deliver("never-opened", boost::json::value(1)));
    EXPECT_FALSE(key_exists("mcp:mb:never-opened"));

    // A deadline already passed: nothing, at once, and the slot is closed.
    a->mailbox().open("mb-late", 30s);
    const auto started = Clock::now();
    EXPECT_FALSE(a->mailbox().wait("mb-late", Clock::now() - 1s, {}).has_value());
    EXPECT_LT(Clock::now() - started, 1s);
    EXPECT_FALSE(b->mailbox().deliver("mb-late", boost::json::value(1)));

    // A short deadline ends the wait.
    a->mailbox().open("mb-short", 30s);
    const auto short_start = Clock::now();
    EXPECT_FALSE(a->mailbox().wait("mb-short", Clock::now() + 150ms, {}).has_value());
    const auto waited = Clock::now() - short_start;
    EXPECT_GE(waited, 150ms);
    EXPECT_LT(waited, 2s);
    EXPECT_FALSE(b->mailbox().deliver("mb-short", boost::json::value(1)));

    // The slot expires with its ttl.
    a->mailbox().open("mb-ttl", 100ms);
    EXPECT_TRUE(eventually([&] { return !key_exists("mcp:mbo:mb-ttl"); }, 3s));
    EXPECT_FALSE(b->mailbox().deliver("mb-ttl", boost::json::value(1)));
}

TEST_F(RedisBackendTest, MailboxRefusesASecondAnswerBeforeTheFirstIsTaken) {
    // As the memory mailbox does: one request, one answer (ADR 0011: "as on one node").
    auto a = node();
    auto b = node();
    a->mailbox().open("mb-twice", 30s);
    EXPECT_TRUE(b->mailbox().deliver("mb-twice", boost::json::value("first")));
    EXPECT_FALSE(b->mailbox().deliver("mb-twice", boost::json::value("second")));
    auto got = a->mailbox().wait("mb-twice", Clock::now() + 2s, {});
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value("first"));
}

TEST_F(RedisBackendTest, MailboxWaitEndsOnStop) {
    auto a = node();
    a->mailbox().open("mb-stop", 30s);
    std::stop_source stop;
    std::atomic<bool> done{false};
    std::optional<boost::json::value> got;
    std::jthread waiter([&] {
        got = a->mailbox().wait("mb-stop", Clock::now() + 10s, stop.get_token());
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
    a->mailbox().open("mb-stopped", 30s);
    const auto started = Clock::now();
    EXPECT_FALSE(a->mailbox().wait("mb-stopped", Clock::now() + 10s, stop.get_token()).has_value());
    EXPECT_LT(Clock::now() - started, 1s);
}

// --- signals between nodes -------------------------------------------------------------------

TEST_F(RedisBackendTest, PublishedSignalsReachHandlersOnEveryNode) {
    Inbox on_a;  // the handlers' state outlives the nodes
    Inbox on_b;
    Inbox other_topic;
    auto a = node();
    auto b = node();
    a->cluster()->subscribe("t1", on_a.handler());
    b->cluster()->subscribe("t1", on_b.handler());
    b->cluster()->subscribe("t2", other_topic.handler());
    wait_listening(2);

    a->cluster()->publish("t1", "one");
    a->cluster()->publish("t1", "two");
    b->cluster()->publish("t1", "three");
    a->cluster()->publish("t2", "elsewhere");
    const std::vector<std::string> expected{"one", "two", "three"};
    EXPECT_TRUE(eventually([&] { return on_b.size() >= 3 && on_a.size() >= 3 && other_topic.size() >= 1; }, 3s));
    EXPECT_EQ(on_b.got(), expected);
    EXPECT_EQ(on_a.got(), expected);  // a node hears its own signals too
    EXPECT_EQ(other_topic.got(), std::vector<std::string>{"elsewhere"});

    // Payloads are binary-safe.
    const std::string odd("a\nb\0c", 5);
    b->cluster()->publish("t2", odd);
    EXPECT_TRUE(eventually([&] { return other_topic.size() >= 2; }, 3s));
    EXPECT_EQ(other_topic.got().back(), odd);
}

TEST_F(RedisBackendTest, UnsubscribeWaitsForTheRunningHandler) {
    std::atomic<bool> running{false};  // the handlers' state outlives the nodes
    std::atomic<int> calls{0};
    Inbox probe;
    auto a = node();
    auto b = node();
    const auto slow = b->cluster()->subscribe("slow", [&](std::string_view) {
        running = true;
        ++calls;
        std::this_thread::sleep_for(300ms);
        running = false;
    });
    b->cluster()->subscribe("probe", probe.handler());
    wait_listening(2);

    a->cluster()->publish("slow", "1");
    ASSERT_TRUE(eventually([&] { return running.load(); }, 3s));
    b->cluster()->unsubscribe(slow);
    EXPECT_FALSE(running.load()) << "unsubscribe returned while the handler ran";
    EXPECT_EQ(calls.load(), 1);

    // Signals after it: the handler is not called. Handlers run in order on one thread, so once the
    // probe arrived the "slow" signal published before it was handled (or not).
    a->cluster()->publish("slow", "2");
    a->cluster()->publish("probe", "p");
    ASSERT_TRUE(eventually([&] { return probe.size() == 1; }, 3s));
    EXPECT_EQ(calls.load(), 1);
    b->cluster()->unsubscribe(slow);  // twice: harmless
}

TEST_F(RedisBackendTest, AFailingHandlerDoesNotStopTheOthers) {
    // Handlers may use the store, so they may throw StoreUnavailable; the other handlers of the
    // same signal, and later signals, still run.
    std::atomic<int> throwing{0};  // the handlers' state outlives the node
    Inbox after;
    auto a = node();
    a->cluster()->subscribe("t", [&](std::string_view) {
        ++throwing;
        throw StoreUnavailable("Redis went away mid-handler");
    });
    a->cluster()->subscribe("t", after.handler());
    wait_listening(1);
    a->cluster()->publish("t", "1");
    a->cluster()->publish("t", "2");
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
    const auto id_a = a->cluster()->on_reconnect([&] { ++reconnected_a; });
    b->cluster()->on_reconnect([&] { ++reconnected_b; });
    b->cluster()->subscribe("after", inbox.handler());
    wait_listening(2);
    std::this_thread::sleep_for(50ms);  // the first subscription's own signal, if any, is handled
    const int before_a = reconnected_a.load();
    const int before_b = reconnected_b.load();

    redis_.restart();
    EXPECT_TRUE(eventually([&] { return reconnected_a.load() > before_a && reconnected_b.load() > before_b; }, 10s));

    // Signals flow again, without recreating anything.
    wait_listening(2);
    a->cluster()->publish("after", "x");
    EXPECT_TRUE(eventually([&] { return inbox.size() == 1; }, 3s));

    // An unsubscribed reconnect handler stays quiet.
    a->cluster()->unsubscribe(id_a);
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
    EXPECT_LT(took, 2s) << what << " took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
}

}  // namespace

TEST_F(RedisBackendTest, WhileRedisIsDownCallsFailFastThenWorkAgain) {
    auto a = node();
    Adopter adopter;
    auto store = a->make_session_store(100, 60s, adopter.factory());
    auto journal = a->make_journal(JournalLimits{});
    auto kept = make_session("s-down");
    ASSERT_TRUE(store->insert(kept));
    journal->append("s-down/get", "x");

    redis_.stop();
    ASSERT_TRUE(eventually([&] { return throws_store_unavailable([&] { journal->exists("s-down/get"); }); }, 3s));

    fails_fast("insert", [&] { store->insert(make_session("s-new")); });
    fails_fast("find", [&] { store->find("s-down"); });
    fails_fast("record level", [&] { set_level(*store, *kept, LogLevel::error); });
    fails_fast("record subscribe", [&] { subscribe(*store, *kept, "file:///down.txt"); });
    fails_fast("remove", [&] { store->remove("s-down"); });
    fails_fast("expire", [&] { store->expire(); });
    EXPECT_EQ(store->size(), 1u);  // nothing dropped for want of Redis
    fails_fast("append", [&] { journal->append("s-down/get", "y"); });
    fails_fast("after", [&] {
        bool complete = false;
        journal->after("s-down/get", "", complete);
    });
    fails_fast("exists", [&] { journal->exists("s-down/get"); });
    fails_fast("last_id", [&] { journal->last_id("s-down/get"); });
    fails_fast("drop", [&] { journal->drop("s-down/get"); });
    fails_fast("open", [&] { a->mailbox().open("mb-down", 30s); });
    fails_fast("deliver", [&] { a->mailbox().deliver("mb-down", boost::json::value(1)); });
    fails_fast("publish", [&] { a->cluster()->publish("t", "x"); });
    fails_fast("subscribers", [&] { a->cluster()->subscribers("file:///a.txt"); });
    // A waiter keeps waiting for Redis, within its deadline.
    const auto started = Clock::now();
    EXPECT_FALSE(a->mailbox().wait("mb-down", Clock::now() + 200ms, {}).has_value());
    EXPECT_LT(Clock::now() - started, 2s);

    // Back (empty: no persistence): the same backend works again.
    redis_.start();
    ASSERT_TRUE(eventually([&] { return !throws_store_unavailable([&] { journal->exists("s-down/get"); }); }, 10s));
    EXPECT_EQ(store->find("s-down"), nullptr);  // its record did not survive the restart
    auto fresh = make_session("s-after");
    ASSERT_TRUE(store->insert(fresh));
    EXPECT_EQ(store->find("s-after"), fresh);
    EXPECT_NO_THROW(set_level(*store, *fresh, LogLevel::alert));
    EXPECT_NO_THROW(subscribe(*store, *fresh, "file:///a.txt"));
    EXPECT_EQ(raw({"HGET", "mcp:s:s-after", "level"}).text, "alert");
    const auto id = journal->append("s-after/get", "z");
    EXPECT_EQ(journal->last_id("s-after/get"), id);
    a->mailbox().open("mb-after", 30s);
    EXPECT_TRUE(a->mailbox().deliver("mb-after", boost::json::value(7)));
    auto got = a->mailbox().wait("mb-after", Clock::now() + 2s, {});
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, boost::json::value(7));
    EXPECT_NO_THROW(a->cluster()->publish("t", "x"));
    EXPECT_EQ(a->cluster()->subscribers("file:///a.txt"), std::vector<std::string>{"s-after"});
}

TEST_F(RedisBackendTest, ARedisDownAtStartupIsNotAnError) {
    redis_.stop();
    const auto started = Clock::now();
    std::shared_ptr<Backend> a;
    ASSERT_NO_THROW(a = make_backend(redis_.url()));
    EXPECT_LT(Clock::now() - started, 5s);
    ASSERT_NE(a->cluster(), nullptr);
    auto journal = a->make_journal(JournalLimits{});
    fails_fast("exists", [&] { journal->exists("x"); });
    fails_fast("open", [&] { a->mailbox().open("mb", 30s); });

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
        std::vector<std::vector<std::string>> burst(50, std::vector<std::string>{"PUBLISH", "mcp:bus:flood", "x"});
        while (flooding.load()) {
            try {
                publisher.pipeline(burst);
            } catch (const StoreUnavailable&) {
            }
        }
    });
    for (int i = 0; i < 20; ++i) {
        Inbox inbox;
        auto c = node();
        c->cluster()->subscribe("flood", inbox.handler());
        ASSERT_TRUE(eventually([&] { return inbox.size() > 0; }, 3s));
        c.reset();
    }
    flooding = false;
}
