// The memory releaser: what a drop leaves free inside malloc goes back to the system. Not in the
// sanitizer build: ASan's allocator keeps its own books (mallinfo2 reads nothing there).
#include "util/memory_release.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

using namespace std::chrono_literals;
using mcp::detail::MemoryReleaser;

namespace {

std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

// 96 MiB in 1 KiB blocks, written to; then all but every 64th freed: the free memory sits between
// blocks still in use, where malloc does not give it back by itself. `full`: VmRSS before the frees.
std::vector<char*> fragmented_drop(std::size_t& full) {
    constexpr std::size_t kBlocks = 96 * 1024;
    std::vector<char*> all(kBlocks);
    for (auto& block : all) {
        block = static_cast<char*>(std::malloc(1024));
        for (std::size_t i = 0; i < 1024; i += 256) block[i] = 1;
    }
    full = resident_bytes();
    std::vector<char*> kept;
    for (std::size_t i = 0; i < kBlocks; ++i) {
        if (i % 64 == 0) {
            kept.push_back(all[i]);
        } else {
            std::free(all[i]);
        }
    }
    return kept;
}

template <class F>
bool eventually(F done, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return done();
}

}  // namespace

TEST(MemoryReleaser, WhatADropLeftFreeInMallocGoesBackToTheSystem) {
    auto releaser = MemoryReleaser::acquire({.interval = 20ms, .min_bytes = std::size_t{16} << 20});
    std::size_t full = 0;
    const auto kept = fragmented_drop(full);
    constexpr std::size_t kBack = std::size_t{48} << 20;
    EXPECT_TRUE(
        eventually([&] { return MemoryReleaser::stats().releases >= 1 && resident_bytes() + kBack < full; }, 10s))
        << "resident before the drop " << (full >> 20) << " MiB, now " << (resident_bytes() >> 20) << " MiB";
    EXPECT_GE(MemoryReleaser::stats().released_bytes, std::size_t{16} << 20);
    for (auto* block : kept) std::free(block);
}

TEST(MemoryReleaser, OneReleaserForTheProcessWhileAnyHolderLives) {
    auto first = MemoryReleaser::acquire({});
    auto second = MemoryReleaser::acquire({.interval = 1h});
    EXPECT_EQ(first, second);
    const std::weak_ptr<MemoryReleaser> watch = first;
    first.reset();
    EXPECT_FALSE(watch.expired());
    second.reset();
    EXPECT_TRUE(watch.expired());  // the last holder stopped its thread
}
