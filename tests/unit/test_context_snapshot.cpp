#include <mcp/server/context_snapshot.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

thread_local std::string tenant;
thread_local int request_id = 0;

std::string& tenant_slot() { return tenant; }
int& request_id_slot() { return request_id; }

// Runs `fn` on a fresh thread, as a handler thread would.
template <class F>
void on_other_thread(F fn) {
    std::thread t(fn);
    t.join();
}

TEST(ContextSnapshot, ValueTravelsToAnotherThreadAndIsClearedAfter) {
    mcp::ContextRegistry registry;
    registry.add_thread_local<std::string>("tenant", &tenant_slot);

    tenant = "acme";
    const mcp::ContextSnapshot snapshot = registry.capture();
    tenant.clear();
    EXPECT_FALSE(snapshot.empty());

    std::string before, inside, after;
    on_other_thread([&] {
        before = tenant;
        {
            auto scope = snapshot.restore();
            inside = tenant;
        }
        after = tenant;
    });
    EXPECT_EQ(before, "");
    EXPECT_EQ(inside, "acme");
    EXPECT_EQ(after, "");
}

TEST(ContextSnapshot, ClearedEvenWhenTheHandlerThrows) {
    mcp::ContextRegistry registry;
    registry.add_thread_local<std::string>("tenant", &tenant_slot);
    tenant = "acme";
    const mcp::ContextSnapshot snapshot = registry.capture();
    tenant.clear();

    std::string inside, after;
    bool caught = false;
    on_other_thread([&] {
        try {
            auto scope = snapshot.restore();
            inside = tenant;
            throw std::runtime_error("handler failed");
        } catch (const std::runtime_error&) {
            caught = true;
        }
        after = tenant;
    });
    EXPECT_TRUE(caught);
    EXPECT_EQ(inside, "acme");
    EXPECT_EQ(after, "");
}

TEST(ContextSnapshot, CarriesTwoAccessors) {
    mcp::ContextRegistry registry;
    registry.add_thread_local<std::string>("tenant", &tenant_slot);
    registry.add_thread_local<int>("request_id", &request_id_slot);
    EXPECT_EQ(registry.size(), 2u);

    tenant = "acme";
    request_id = 42;
    const mcp::ContextSnapshot snapshot = registry.capture();
    tenant.clear();
    request_id = 0;

    std::string tenant_inside;
    int id_inside = 0;
    int id_after = -1;
    on_other_thread([&] {
        {
            auto scope = snapshot.restore();
            tenant_inside = tenant;
            id_inside = request_id;
        }
        id_after = request_id;
    });
    EXPECT_EQ(tenant_inside, "acme");
    EXPECT_EQ(id_inside, 42);
    EXPECT_EQ(id_after, 0);
}

TEST(ContextSnapshot, AccessorAddedAfterCaptureIsNotPartOfIt) {
    mcp::ContextRegistry registry;
    registry.add_thread_local<std::string>("tenant", &tenant_slot);
    tenant = "acme";
    const mcp::ContextSnapshot earlier = registry.capture();
    tenant.clear();

    std::atomic<int> late_calls{0};
    registry.add({"late",
                  [&] {
                      ++late_calls;
                      return std::any(1);
                  },
                  [&](const std::any&) { ++late_calls; }, [&] { ++late_calls; }});

    std::string inside;
    on_other_thread([&] {
        auto scope = earlier.restore();
        inside = tenant;
    });
    EXPECT_EQ(inside, "acme");
    EXPECT_EQ(late_calls, 0);

    // A later capture does include it: capture, restore and clear.
    const mcp::ContextSnapshot later = registry.capture();
    on_other_thread([&] { auto scope = later.restore(); });
    EXPECT_EQ(late_calls, 3);
}

TEST(ContextSnapshot, ThrowingAccessorDoesNotStopTheOthers) {
    mcp::ContextRegistry registry;
    registry.add({"bad-capture", []() -> std::any { throw std::runtime_error("capture"); },
                  [](const std::any&) { ADD_FAILURE() << "restored a value whose capture failed"; }, [] {}});
    registry.add({"bad-restore", [] { return std::any(1); },
                  [](const std::any&) { throw std::runtime_error("restore"); }, [] {}});
    registry.add_thread_local<std::string>("tenant", &tenant_slot);
    registry.add({"bad-clear", [] { return std::any(1); }, [](const std::any&) {}, [] { throw 7; }});
    registry.add_thread_local<int>("request_id", &request_id_slot);

    tenant = "acme";
    request_id = 42;
    const mcp::ContextSnapshot snapshot = registry.capture();
    tenant.clear();
    request_id = 0;

    std::string tenant_inside, tenant_after;
    int id_inside = 0;
    int id_after = -1;
    on_other_thread([&] {
        {
            auto scope = snapshot.restore();
            tenant_inside = tenant;
            id_inside = request_id;
        }
        tenant_after = tenant;
        id_after = request_id;
    });
    EXPECT_EQ(tenant_inside, "acme");
    EXPECT_EQ(id_inside, 42);
    EXPECT_EQ(tenant_after, "");
    EXPECT_EQ(id_after, 0);
}

TEST(ContextSnapshot, CapturedEmptyAnyIsStillRestored) {
    mcp::ContextRegistry registry;
    std::atomic<bool> restored_empty{false};
    registry.add(
        {"optional", [] { return std::any(); }, [&](const std::any& v) { restored_empty = !v.has_value(); }, [] {}});
    const mcp::ContextSnapshot snapshot = registry.capture();
    { auto scope = snapshot.restore(); }
    EXPECT_TRUE(restored_empty);
}

TEST(ContextSnapshot, EmptyWithoutAccessors) {
    mcp::ContextRegistry registry;
    EXPECT_EQ(registry.size(), 0u);
    const mcp::ContextSnapshot captured = registry.capture();
    EXPECT_TRUE(captured.empty());
    { auto scope = captured.restore(); }

    const mcp::ContextSnapshot unset;
    EXPECT_TRUE(unset.empty());
    { auto scope = unset.restore(); }
}

TEST(ContextSnapshot, MovedScopeClearsOnce) {
    mcp::ContextRegistry registry;
    std::atomic<int> clears{0};
    registry.add({"counted", [] { return std::any(1); }, [](const std::any&) {}, [&] { ++clears; }});
    const mcp::ContextSnapshot snapshot = registry.capture();
    {
        auto first = snapshot.restore();
        auto second = std::move(first);
    }
    EXPECT_EQ(clears, 1);
}

TEST(ContextRegistry, GlobalIsOneInstance) {
    EXPECT_EQ(&mcp::ContextRegistry::global(), &mcp::ContextRegistry::global());
}

TEST(ContextRegistry, AddWhileCapturingFromAnotherThread) {
    mcp::ContextRegistry registry;
    std::atomic<bool> adding_done{false};
    std::thread adder([&] {
        for (int i = 0; i < 200; ++i) {
            registry.add({std::to_string(i), [i] { return std::any(i); }, [](const std::any&) {}, [] {}});
        }
        adding_done = true;
    });
    std::size_t last_size = 0;
    bool sizes_never_shrank = true;
    while (!adding_done) {
        const mcp::ContextSnapshot snapshot = registry.capture();
        const std::size_t size = registry.size();
        if (size < last_size) sizes_never_shrank = false;
        last_size = size;
        auto scope = snapshot.restore();
    }
    adder.join();
    EXPECT_TRUE(sizes_never_shrank);
    EXPECT_EQ(registry.size(), 200u);
}

}  // namespace
