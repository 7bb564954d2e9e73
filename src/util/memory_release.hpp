#pragma once
// Gives back to the system the memory malloc keeps after a large drop: when sessions holding many
// parked calls end, their memory is free inside malloc but stays in the process (glibc returns
// only the top of a heap by itself). One thread per process, while any holder lives, looks every
// interval at how much malloc holds free and, once that has grown by min_bytes since the last
// release, calls malloc_trim (docs/adr/0028-memory-after-a-burst.md). Without glibc's malloc (a
// host linking jemalloc or mimalloc) it finds nothing to release and does nothing.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace mcp::detail {

struct MemoryReleaseSettings {
    std::chrono::milliseconds interval{2000};
    std::size_t min_bytes = std::size_t{32} << 20;
};

struct MemoryReleaseStats {
    std::uint64_t releases = 0;        // malloc_trim calls made
    std::uint64_t released_bytes = 0;  // resident memory they gave back, as VmRSS saw it
};

class MemoryReleaser {
public:
    // The process's releaser; started by the first holder (with its settings), stopped when the
    // last one lets go.
    static std::shared_ptr<MemoryReleaser> acquire(MemoryReleaseSettings settings);
    static MemoryReleaseStats stats();

    ~MemoryReleaser();
    MemoryReleaser(const MemoryReleaser&) = delete;
    MemoryReleaser& operator=(const MemoryReleaser&) = delete;

private:
    struct Impl;
    explicit MemoryReleaser(MemoryReleaseSettings settings);
    std::unique_ptr<Impl> impl_;
};

}  // namespace mcp::detail
