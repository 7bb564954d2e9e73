#pragma once
// An elastic thread pool for tasks that may block; the core runs every call's handler on one
// (docs/adr/0003-execution-model.md).
//
// - core_threads start at once and never exit (0: one per CPU, at least 2).
// - The pool grows, one thread at a time up to max_threads, when a queued task has waited longer
//   than grow_after with no idle thread and fewer than core_threads workers are making progress
//   (a worker whose task has run for grow_after is stalled), or at once when a running task enters
//   a BlockingScope while tasks are queued. Short CPU-bound tasks therefore never make it grow,
//   even when they saturate the CPUs and the queue waits.
// - Threads above the core exit after idle_timeout without work.
// - The queue holds at most queue_capacity tasks; try_submit refuses beyond that.
#include <mcp/util/execution_options.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace mcp::detail {

// Whether a task counts against the queue's bound: new calls do; work of calls admitted already
// (a parked call resuming with its answers) does not.
enum class Admission { bounded, always };

struct HandlerPoolStats {
    std::size_t threads = 0;       // live worker threads
    std::size_t idle = 0;          // workers waiting for work
    std::size_t blocked = 0;       // workers inside a BlockingScope
    std::size_t queued = 0;        // tasks waiting
    std::size_t peak_threads = 0;  // most threads alive at once
    std::size_t rejected = 0;      // try_submit refusals
    std::size_t completed = 0;     // tasks run to the end
};

// The threads kept ready: core_threads, or one per CPU (at least 2) when it is 0.
std::size_t core_threads_of(const ExecutionOptions& options);

class HandlerPool {
public:
    // Throws std::invalid_argument when max_threads is below the core threads.
    explicit HandlerPool(ExecutionOptions options);
    // Calls shutdown().
    ~HandlerPool();
    HandlerPool(const HandlerPool&) = delete;
    HandlerPool& operator=(const HandlerPool&) = delete;

    // Queues a task. Returns false (and counts a rejection) when the queue is full (for a bounded
    // task) or the pool is shut down. A task that throws is caught and logged; the worker survives.
    bool try_submit(std::function<void()> task, Admission admission = Admission::bounded);

    HandlerPoolStats stats() const;

    // Stops accepting tasks, runs every queued task, waits for all of them, joins the threads.
    // Idempotent.
    void shutdown();

    // Used by BlockingScope on a worker thread of this pool.
    void begin_blocking();
    void end_blocking();
    // The pool whose worker is the calling thread, or nullptr.
    static HandlerPool* current();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace mcp::detail
