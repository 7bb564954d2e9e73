#include "util/memory_release.hpp"

#include "util/log.hpp"
#include "util/metrics.hpp"

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

namespace mcp::detail {

namespace {

std::atomic<std::uint64_t> g_releases{0};
std::atomic<std::uint64_t> g_released_bytes{0};

std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

// What glibc's malloc holds free, in all its arenas; 0 without glibc.
std::size_t malloc_free_bytes() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    return ::mallinfo2().fordblks;
#else
    return 0;
#endif
}

struct ReleaseMetrics {
    metrics::Counter& releases;
    metrics::Counter& released_bytes;
};

ReleaseMetrics& release_metrics() {
    auto& r = metrics::registry();
    static ReleaseMetrics m{
        r.family("mcp_memory_releases_total", "times memory malloc held free after a drop was given back (malloc_trim)",
                 metrics::Type::counter)
            .counter({}),
        r.family("mcp_memory_released_bytes_total", "resident memory those releases gave back", metrics::Type::counter)
            .counter({})};
    return m;
}

void trim() {
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

}  // namespace

struct MemoryReleaser::Impl {
    explicit Impl(MemoryReleaseSettings s) : settings(s), baseline(malloc_free_bytes()), thread([this] { run(); }) {}
    ~Impl() {
        {
            std::lock_guard lock(mutex);
            stopping = true;
        }
        wake.notify_all();
        thread.join();
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    void run() {
        std::unique_lock lock(mutex);
        while (!wake.wait_for(lock, settings.interval, [&] { return stopping; })) {
            lock.unlock();
            const std::size_t free_now = malloc_free_bytes();
            if (free_now < baseline) baseline = free_now;  // reused since: the next drop counts from here
            if (free_now - baseline >= settings.min_bytes) {
                const std::size_t before = resident_bytes();
                trim();
                const std::size_t after = resident_bytes();
                baseline = malloc_free_bytes();
                const std::size_t released = before > after ? before - after : 0;
                ++g_releases;
                g_released_bytes += released;
                if (metrics::enabled()) {
                    release_metrics().releases.add();
                    release_metrics().released_bytes.add(released);
                }
                log().debug("memory: {} MiB free in malloc, {} MiB resident given back", free_now >> 20,
                            released >> 20);
            }
            lock.lock();
        }
    }

    const MemoryReleaseSettings settings;
    // The free memory the last release left (or the start found): malloc_trim returns pages, but
    // the chunks stay free in malloc's books, so the figure does not fall after one. The thread's.
    std::size_t baseline;
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread thread;  // last: it starts running at construction
};

MemoryReleaser::MemoryReleaser(MemoryReleaseSettings settings) : impl_(std::make_unique<Impl>(settings)) {}

MemoryReleaser::~MemoryReleaser() = default;

std::shared_ptr<MemoryReleaser> MemoryReleaser::acquire(MemoryReleaseSettings settings) {
    // Never destroyed: a server that outlives static destruction may still let go of its holder.
    static auto* mutex = new std::mutex;
    static auto* current = new std::weak_ptr<MemoryReleaser>;
    std::lock_guard lock(*mutex);
    if (auto live = current->lock()) return live;
    std::shared_ptr<MemoryReleaser> made(new MemoryReleaser(settings));
    *current = made;
    return made;
}

MemoryReleaseStats MemoryReleaser::stats() { return {g_releases.load(), g_released_bytes.load()}; }

}  // namespace mcp::detail
