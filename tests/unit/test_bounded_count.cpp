#include "util/bounded_count.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace {

using mcp::detail::BoundedCount;

TEST(BoundedCount, TakesAtMostTheLimitAndGivesAPlaceBackWhenItsHolderIsDestroyed) {
    BoundedCount count;
    auto first = count.try_take(2);
    auto second = count.try_take(2);
    ASSERT_TRUE(first && second);
    EXPECT_FALSE(count.try_take(2));
    EXPECT_EQ(count.taken(), 2u);
    first.reset();
    EXPECT_EQ(count.taken(), 1u);
    EXPECT_TRUE(count.try_take(2));  // a temporary: given back at once
    EXPECT_EQ(count.taken(), 1u);
    EXPECT_FALSE(count.try_take(0));
}

TEST(BoundedCount, AMovedPlaceIsGivenBackOnceAndAnAssignedOneGivesBackWhatItHeld) {
    BoundedCount count;
    auto a = count.try_take(3);
    auto b = count.try_take(3);
    ASSERT_TRUE(a && b);
    {
        auto moved = std::move(*a);  // the moved-from place gives nothing back
        a.reset();
        EXPECT_EQ(count.taken(), 2u);
        *b = std::move(moved);  // b's own place is given back; it now holds moved's
        EXPECT_EQ(count.taken(), 1u);
    }
    EXPECT_EQ(count.taken(), 1u);
    b.reset();
    EXPECT_EQ(count.taken(), 0u);
}

TEST(BoundedCount, ThreadsRacingForPlacesNeverTakeMoreThanTheLimit) {
    BoundedCount count;
    constexpr std::size_t kLimit = 3;
    std::atomic<std::size_t> most{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 20'000; ++i) {
                if (auto place = count.try_take(kLimit)) {
                    auto now = count.taken();
                    for (auto seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {}
                }
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_LE(most.load(), kLimit);
    EXPECT_GE(most.load(), 1u);
    EXPECT_EQ(count.taken(), 0u);
}

}  // namespace
