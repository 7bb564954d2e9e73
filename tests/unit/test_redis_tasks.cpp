// Tasks in Redis (docs/adr/0021-tasks.md): two nodes on one real redis-server share task records;
// transitions are compare-and-set; a node that stops beating leaves failed tasks, not hanging ones.
#include "redis_fixture.hpp"
#include "store/task_store.hpp"

#include <boost/json/parse.hpp>

using namespace testing_support;
using mcp::detail::TaskRecord;
using mcp::detail::TaskStatus;

namespace {

TaskRecord record(const std::string& id, const std::string& owner, const std::string& node, std::int64_t created) {
    TaskRecord r;
    r.id = id;
    r.owner = owner;
    r.charged_to = "p:" + owner;  // a principal's tasks count against it
    r.node = node;
    r.created_ms = r.updated_ms = created;
    r.ttl_ms = 60'000;
    return r;
}

// "p0", "p1"… (appending: GCC 12 warns falsely about operator+ on a temporary here).
std::string numbered(std::string prefix, int i) { return prefix.append(std::to_string(i)); }

class RedisTasks : public RedisTest {};

}  // namespace

TEST_F(RedisTasks, OneNodeCreatesAnotherReadsAnswersAndCancels) {
    auto a = node();
    auto b = node();
    const auto& node_a = a->bus()->node_id();
    const auto now = mcp::detail::epoch_ms();
    ASSERT_TRUE(a->tasks().create(record("t1", "alice", node_a, now), 10));
    EXPECT_TRUE(key_exists("mcp:node:{" + node_a + "}"));  // it beats
    EXPECT_GT(pttl("mcp:t:{t1}"), 50'000);

    auto seen = b->tasks().get("t1");
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->status, TaskStatus::working);
    EXPECT_EQ(seen->owner, "alice");
    EXPECT_EQ(seen->created_ms, now);

    ASSERT_TRUE(a->tasks().await_input(
        "t1", R"({"q1":{"method":"elicitation/create","params":{"a":[]}},"q2":{"method":"roots/list"}})"));
    seen = b->tasks().get("t1");
    EXPECT_EQ(seen->status, TaskStatus::input_required);
    EXPECT_EQ(boost::json::parse(seen->input_requests).at("q1").at("params").at("a"), boost::json::array());
    EXPECT_FALSE(b->tasks().answer("t1", R"({"q1":{"content":{"list":[]}},"unknown":1})"));  // q2 still waits
    EXPECT_EQ(boost::json::parse(b->tasks().get("t1")->input_requests).as_object().size(), 1u);
    EXPECT_FALSE(b->tasks().answer("t1", R"({"q1":{"again":true}})"));  // answered already
    EXPECT_TRUE(b->tasks().answer("t1", R"({"q2":{"roots":[]}})"));
    const auto answers = boost::json::parse(*a->tasks().resume("t1"));
    EXPECT_EQ(answers.at("q1").at("content").at("list"), boost::json::array());  // no JSON re-encoding in Lua
    EXPECT_EQ(answers.at("q2").at("roots"), boost::json::array());
    EXPECT_EQ(a->tasks().get("t1")->status, TaskStatus::working);

    a->tasks().set_message("t1", "half way");
    EXPECT_EQ(b->tasks().get("t1")->message, "half way");
    EXPECT_EQ(b->tasks().cancel("t1")->status, TaskStatus::cancelled);
    EXPECT_FALSE(a->tasks().finish("t1", {.status = TaskStatus::completed, .result = "{}"}));  // cancelled first
    EXPECT_EQ(a->tasks().get("t1")->status, TaskStatus::cancelled);
    EXPECT_FALSE(a->tasks().resume("t1"));
    EXPECT_FALSE(b->tasks().get("never"));
    EXPECT_FALSE(b->tasks().cancel("never"));
}

TEST_F(RedisTasks, EndsOnceBoundsPerOwnerAndListsInPages) {
    auto a = node();
    const auto& n = a->bus()->node_id();
    const auto now = mcp::detail::epoch_ms();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(a->tasks().create(record(numbered("p", i), "bob", n, now + i), 3));
    EXPECT_FALSE(a->tasks().create(record("p3", "bob", n, now + 3), 3));
    EXPECT_TRUE(a->tasks().create(record("q0", "carol", n, now), 3));
    EXPECT_TRUE(a->tasks().finish("p0", {.status = TaskStatus::failed,
                                         .result = R"({"isError":true})",
                                         .error = R"({"code":-32603,"message":"x"})",
                                         .message = "it broke"}));
    EXPECT_FALSE(a->tasks().finish("p0", {.status = TaskStatus::completed, .result = "{}"}));
    auto p0 = a->tasks().get("p0");
    EXPECT_EQ(p0->error, R"({"code":-32603,"message":"x"})");
    EXPECT_EQ(p0->result, R"({"isError":true})");
    EXPECT_EQ(p0->message, "it broke");
    auto page = a->tasks().list("bob", -1, "", 2);
    ASSERT_EQ(page.size(), 2u);
    EXPECT_EQ(page[0].id, "p0");
    EXPECT_EQ(page[1].id, "p1");
    page = a->tasks().list("bob", page[1].created_ms, page[1].id, 2);
    ASSERT_EQ(page.size(), 1u);
    EXPECT_EQ(page[0].id, "p2");
}

TEST_F(RedisTasks, ATaskOfANodeThatStoppedBeatingFailsWhenRead) {
    auto b = node();
    std::string dead;
    {
        auto a = node();
        dead = a->bus()->node_id();
        ASSERT_TRUE(a->tasks().create(record("orphan", "", dead, mcp::detail::epoch_ms()), 10));
        ASSERT_TRUE(a->tasks().create(record("ended", "", dead, mcp::detail::epoch_ms()), 10));
        ASSERT_TRUE(a->tasks().finish("ended", {.status = TaskStatus::completed, .result = R"({"content":[]})"}));
    }
    ASSERT_TRUE(b->tasks().create(record("alive", "", b->bus()->node_id(), mcp::detail::epoch_ms()), 10));
    EXPECT_EQ(b->tasks().get("orphan")->status, TaskStatus::working);  // its lease still runs
    raw({"DEL", "mcp:node:{" + dead + "}"});                           // as if 5 s had passed
    auto orphan = b->tasks().get("orphan");
    EXPECT_EQ(orphan->status, TaskStatus::failed);
    EXPECT_NE(orphan->error.find("node running this task stopped"), std::string::npos) << orphan->error;
    EXPECT_EQ(b->tasks().get("ended")->status, TaskStatus::completed);  // an ended task stays as it ended
    EXPECT_EQ(b->tasks().get("alive")->status, TaskStatus::working);
}

TEST_F(RedisTasks, StoreAwayIsStoreUnavailable) {
    auto a = node();
    redis_.stop();
    EXPECT_TRUE(throws_store_unavailable([&] { a->tasks().get("x"); }));
    EXPECT_TRUE(throws_store_unavailable(
        [&] { a->tasks().create(record("x", "", a->bus()->node_id(), mcp::detail::epoch_ms()), 10); }));
}

TEST_F(RedisTasks, AnonymousClientsAreCountedByAddressAcrossNodesWhatEverTheirOwner) {
    auto a = node();
    auto b = node();
    const auto now = mcp::detail::epoch_ms();
    auto anonymous = [&](const std::string& id, const std::string& address) {
        auto r = record(id, "", a->bus()->node_id(), now);
        r.charged_to = "a:" + address;
        return r;
    };
    ASSERT_TRUE(a->tasks().create(anonymous("x0", "192.0.2.7"), 2));
    ASSERT_TRUE(b->tasks().create(anonymous("x1", "192.0.2.7"), 2));
    EXPECT_FALSE(a->tasks().create(anonymous("x2", "192.0.2.7"), 2));  // two, on two nodes
    EXPECT_TRUE(b->tasks().create(anonymous("y0", "192.0.2.8"), 2));   // another address
    // All anonymous tasks still have one owner, whose list holds them all.
    EXPECT_EQ(a->tasks().list("", 0, "", 10).size(), 3u);
}
