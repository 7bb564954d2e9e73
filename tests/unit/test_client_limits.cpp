// The accounting behind the per-client bounds (docs/adr/0024-fair-limits.md): quotas per client,
// and fair shares at a bound in all.
#include "util/client_key.hpp"
#include "util/client_quota.hpp"
#include "util/fair_share.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

namespace {

using mcp::detail::Bound;
using mcp::detail::client_key;
using mcp::detail::ClientQuota;
using mcp::detail::FairShare;

TEST(ClientKey, APrincipalIsTheClientElseTheAddressAndTheTwoNeverMeet) {
    EXPECT_EQ(client_key("alice", "192.0.2.7"), "p:alice");
    EXPECT_EQ(client_key("", "192.0.2.7"), "a:192.0.2.7");
    EXPECT_NE(client_key("192.0.2.7", ""), client_key("", "192.0.2.7"));
    EXPECT_EQ(client_key("", ""), "");
}

TEST(ClientQuota, EachClientHasItsOwnQuotaAndAPlaceIsGivenBackWhenItsHolderEnds) {
    ClientQuota quota;
    const std::size_t limit = 2;
    auto a1 = quota.try_take("a", limit);
    auto a2 = quota.try_take("a", limit);
    ASSERT_TRUE(a1 && a2);
    EXPECT_FALSE(quota.try_take("a", limit));
    auto b1 = quota.try_take("b", limit);
    EXPECT_TRUE(b1);
    EXPECT_EQ(quota.held_by("a"), 2u);
    a1.reset();
    EXPECT_EQ(quota.held_by("a"), 1u);
    {
        auto moved = std::move(*a2);  // the moved-from place gives nothing back
        a2.reset();
        EXPECT_EQ(quota.held_by("a"), 1u);
    }
    EXPECT_EQ(quota.held_by("a"), 0u);
    EXPECT_TRUE(quota.try_take("a", limit));
    EXPECT_FALSE(ClientQuota().try_take("a", 0));
    EXPECT_TRUE(ClientQuota().try_take("", 0));  // no key, no quota: stdio and in-process
}

TEST(ClientQuota, PlacesOutliveTheQuotaAndCountRightUnderContention) {
    std::optional<ClientQuota::Place> kept;
    {
        ClientQuota quota;
        const std::size_t limit = 1000;
        std::vector<std::thread> threads;
        std::atomic<int> taken{0};
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                for (int i = 0; i < 2000; ++i) {
                    if (auto place = quota.try_take(t % 2 == 0 ? "even" : "odd", limit)) ++taken;
                }
            });
        }
        for (auto& t : threads) t.join();
        EXPECT_EQ(taken.load(), 8000);
        EXPECT_EQ(quota.held_by("even"), 0u);
        kept = quota.try_take("late", limit);
    }
    kept.reset();  // gives back to counts that outlived their quota
}

// A take that is expected to succeed.
FairShare::Hold hold(FairShare& share, FairShare::Limits limits, const std::string& client,
                     std::vector<std::string>* ended = nullptr, std::string name = {}) {
    auto verdict = share.take(client, limits, [ended, name] {
        if (ended) ended->push_back(name);
    });
    EXPECT_TRUE(std::holds_alternative<FairShare::Hold>(verdict)) << client;
    return std::move(std::get<FairShare::Hold>(verdict));
}

FairShare::Refusal refusal(FairShare& share, FairShare::Limits limits, const std::string& client) {
    auto verdict = share.take(client, limits, [] { ADD_FAILURE() << "a refused take's resource was ended"; });
    EXPECT_TRUE(std::holds_alternative<FairShare::Refusal>(verdict)) << client;
    return std::holds_alternative<FairShare::Refusal>(verdict) ? std::get<FairShare::Refusal>(verdict)
                                                               : FairShare::Refusal::client_limit;
}

TEST(FairShare, AClientAtItsOwnLimitIsRefusedAndOthersAreNot) {
    FairShare share(Bound::listen_streams);
    const FairShare::Limits limits{.total = 10, .per_client = 2};
    auto a1 = hold(share, limits, "a");
    auto a2 = hold(share, limits, "a");
    EXPECT_EQ(refusal(share, limits, "a"), FairShare::Refusal::client_limit);
    auto b1 = hold(share, limits, "b");
    EXPECT_EQ(share.held(), 3u);
    EXPECT_EQ(share.held_by("a"), 2u);
    std::vector<FairShare::Hold> unkeyed;  // stdio, in-process: the bound in all only
    for (int i = 0; i < 7; ++i) unkeyed.push_back(hold(share, limits, ""));
    EXPECT_EQ(refusal(share, limits, ""), FairShare::Refusal::full);
}

TEST(FairShare, AtTheBoundTheLeastRecentlyUsedOfAClientAboveItsShareMakesRoom) {
    FairShare share(Bound::sessions);
    const FairShare::Limits limits{.total = 4, .per_client = 4};
    std::vector<std::string> ended;
    auto a1 = hold(share, limits, "a", &ended, "a1");
    auto a2 = hold(share, limits, "a", &ended, "a2");
    auto a3 = hold(share, limits, "a", &ended, "a3");
    auto b1 = hold(share, limits, "b", &ended, "b1");
    // c makes three clients: a share is ceil(4 / 3) = 2, and a holds 3.
    auto c1 = hold(share, limits, "c", &ended, "c1");
    EXPECT_EQ(ended, std::vector<std::string>{"a1"});
    EXPECT_EQ(share.held(), 4u);
    a2.touch();                                        // a3 is now a's least recently used
    auto d1 = hold(share, limits, "d", &ended, "d1");  // four clients, a share of 1; a holds 2
    EXPECT_EQ(ended, (std::vector<std::string>{"a1", "a3"}));
    // Every client holds its share: a newcomer is refused, and so is a client wanting a second.
    EXPECT_EQ(refusal(share, limits, "e"), FairShare::Refusal::full);
    EXPECT_EQ(refusal(share, limits, "b"), FairShare::Refusal::full);
    EXPECT_EQ(share.held(), 4u);
    // The evicted holds give nothing back when their resources end; a live one does.
    { auto gone = std::move(a1); }
    { auto gone = std::move(a3); }
    EXPECT_EQ(share.held(), 4u);
    { auto gone = std::move(b1); }
    EXPECT_EQ(share.held(), 3u);
    auto e1 = hold(share, limits, "e", &ended, "e1");
    EXPECT_EQ(ended.size(), 2u);
}

TEST(FairShare, TheNewcomerNeverEvictsItself) {
    FairShare share(Bound::parked_calls);
    const FairShare::Limits limits{.total = 3, .per_client = 5};
    auto a1 = hold(share, limits, "a");
    auto a2 = hold(share, limits, "a");
    auto b1 = hold(share, limits, "b");
    // a holds the most (2 of a share of ceil(3 / 2) = 2): not above it, so a third is refused.
    EXPECT_EQ(refusal(share, limits, "a"), FairShare::Refusal::full);
    EXPECT_EQ(share.held_by("a"), 2u);
}

TEST(FairShare, HoldsOutliveTheShareAndCountRightUnderContention) {
    std::optional<FairShare::Hold> kept;
    {
        FairShare share(Bound::calls);
        const FairShare::Limits limits{.total = 64, .per_client = 64};
        std::atomic<int> evicted{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                std::vector<FairShare::Hold> mine;
                for (int i = 0; i < 500; ++i) {
                    auto verdict = share.take("client" + std::to_string(t), limits, [&evicted] { ++evicted; });
                    if (auto* h = std::get_if<FairShare::Hold>(&verdict)) mine.push_back(std::move(*h));
                    if (mine.size() > 20) mine.erase(mine.begin());
                }
            });
        }
        for (auto& t : threads) t.join();
        EXPECT_EQ(share.held(), 0u);
        kept = hold(share, limits, "late");
    }
    kept.reset();
}

}  // namespace
