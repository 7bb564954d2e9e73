#pragma once
// Resource limits of a stdio server's process (setrlimit), set in the child before it runs the
// command, so that they hold for it and for every process it starts. Unset: the client's own.
//
//   mcp::StdioServerParams{.command = "npx", .args = {...}, .limits = {.memory_mib = 1024, .cpu_seconds = 600}}
//
// A value above the client's own hard limit is lowered to it (only a privileged client may raise
// one). A server that passes a limit fails or dies: an allocation fails (memory), it is killed
// (cpu), an open or a fork fails (files, processes).
#include <cstdint>
#include <optional>

namespace mcp {

struct StdioLimits {
    // RLIMIT_DATA: the process's data, heap and private writable mappings, in MiB (Linux counts
    // mmap since 4.7). Not the address space (RLIMIT_AS): V8 and other runtimes reserve far more
    // address space than they use, and node does not start under an address space limit a data
    // limit of the same size lets it run under.
    std::optional<std::uint64_t> memory_mib;
    // RLIMIT_CPU: seconds of CPU time, user and system; the process is killed past it.
    std::optional<std::uint64_t> cpu_seconds;
    // RLIMIT_NOFILE: descriptors open at once (stdin, stdout and stderr count).
    std::optional<std::uint64_t> open_files;
    // RLIMIT_NPROC: processes (threads count) of the child's user, all of them, not only the
    // child's; not enforced for root.
    std::optional<std::uint64_t> processes;

    // The largest value of each that a configuration may give.
    static constexpr std::uint64_t max_memory_mib = 1024ULL * 1024;  // 1 TiB
    static constexpr std::uint64_t max_cpu_seconds = 366ULL * 24 * 3600;
    static constexpr std::uint64_t max_open_files = 1024ULL * 1024;     // Linux's default nr_open
    static constexpr std::uint64_t max_processes = 4ULL * 1024 * 1024;  // Linux's largest pid_max

    // Each of this one's values, or `defaults`' where this one has none.
    StdioLimits or_defaults(const StdioLimits& defaults) const {
        return {memory_mib ? memory_mib : defaults.memory_mib, cpu_seconds ? cpu_seconds : defaults.cpu_seconds,
                open_files ? open_files : defaults.open_files, processes ? processes : defaults.processes};
    }
    bool empty() const { return !memory_mib && !cpu_seconds && !open_files && !processes; }
};

}  // namespace mcp
