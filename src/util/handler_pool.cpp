#include "util/handler_pool.hpp"

#include "util/log.hpp"

#include <pthread.h>

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace mcp::detail {

namespace {

using Clock = std::chrono::steady_clock;

thread_local HandlerPool* t_current_pool = nullptr;

// At most one line per period, for conditions that persist (callers hold the pool's mutex).
class RateLimitedLog {
public:
    bool due() {
        const auto now = Clock::now();
        if (now < next_) return false;
        next_ = now + std::chrono::seconds(10);
        return true;
    }

private:
    Clock::time_point next_{};
};

}  // namespace

// Accounting, all under `mu`:
// - threads: workers alive or being created; starting: created but not yet in their loop;
// - idle: parked workers, most recently parked last; waking: workers claimed by a submit (or by
//   shutdown) that have not yet woken up.
// A queued task is "covered" while queue.size() <= waking + starting: some worker is already on its
// way to it. Only uncovered tasks are reasons to grow.
struct HandlerPool::Impl {
    struct Task {
        std::function<void()> fn;
        Clock::time_point queued_at;
    };
    // Each idle worker parks on its own condition variable so that submits wake the most recently
    // parked one (LIFO). The others keep timing out, which is what lets the pool shrink under a
    // light steady load instead of rotating work over every thread.
    struct IdleSlot {
        std::condition_variable cv;
        bool claimed = false;
    };

    // A live worker, registered for its lifetime: when its current task started (none: epoch).
    struct Worker {
        Clock::time_point running_since{};
    };

    Impl(HandlerPool* pool, ExecutionOptions opts) : owner(pool), options(opts) {
        options.core_threads = core_threads_of(options);
        if (options.max_threads < options.core_threads) {
            throw std::invalid_argument("handler pool: max_threads (" + std::to_string(options.max_threads) +
                                        ") is below its core threads (" + std::to_string(options.core_threads) + ")");
        }
        options.stack_size = std::max<std::size_t>(options.stack_size, PTHREAD_STACK_MIN);
        // The supervisor re-checks at this period while it cannot act; never 0, or it would spin.
        recheck = std::max(options.grow_after, std::chrono::milliseconds(1));
    }

    void start() {
        supervisor = std::thread([this] { supervise(); });
        std::unique_lock lock(mu);
        for (std::size_t i = 0; i < options.core_threads; ++i) {
            if (!spawn(lock)) {
                lock.unlock();
                shutdown();
                throw std::runtime_error("handler pool: cannot start its core threads");
            }
        }
    }

    bool uncovered_locked() const { return queue.size() > waking + starting; }

    // Workers whose current task has run for grow_after or longer: blocked, or long computations.
    // A task overdue while every worker keeps finishing short tasks means the CPUs are saturated,
    // which another thread would not help.
    std::size_t stalled_locked(Clock::time_point now) const {
        return static_cast<std::size_t>(std::count_if(workers.begin(), workers.end(), [&](const Worker* w) {
            return w->running_since != Clock::time_point{} && now - w->running_since >= options.grow_after;
        }));
    }

    // During shutdown the pool may still grow while tasks remain, so that blocked tasks cannot keep
    // queued ones (perhaps the ones that would unblock them) from running.
    bool can_grow_locked() const { return threads < options.max_threads && !(stopping && queue.empty()); }

    void claim_idle_locked() {
        IdleSlot* slot = idle.back();
        idle.pop_back();
        slot->claimed = true;
        ++waking;
        slot->cv.notify_one();
    }

    // Starts one worker. Called with `lock` held and can_grow_locked() true; releases the lock
    // around pthread_create. The new thread is counted in `threads` and `starting` from the start.
    bool spawn(std::unique_lock<std::mutex>& lock) {
        ++threads;
        ++starting;
        peak = std::max(peak, threads);
        lock.unlock();

        pthread_attr_t attr;
        pthread_attr_init(&attr);
        int rc = pthread_attr_setstacksize(&attr, options.stack_size);
        pthread_t id{};
        if (rc == 0) rc = pthread_create(&id, &attr, &Impl::thread_main, this);
        pthread_attr_destroy(&attr);

        lock.lock();
        if (rc == 0) {
            log().debug("handler pool: started a thread ({} alive)", threads);
            return true;
        }
        --threads;
        --starting;
        if (threads == 0) done_cv.notify_all();
        if (spawn_failure_log.due()) log().error("handler pool: cannot start a thread: {}", std::strerror(rc));
        return false;
    }

    static void* thread_main(void* self) {
        static_cast<Impl*>(self)->work();
        return nullptr;
    }

    void work() {
        t_current_pool = owner;
        pthread_setname_np(pthread_self(), "mcp-handler");

        Worker me;
        std::unique_lock lock(mu);
        --starting;
        workers.push_back(&me);
        supervisor_cv.notify_one();  // it may be waiting for this thread before growing again
        for (;;) {
            if (!queue.empty()) {
                run_front(lock, me);
                continue;
            }
            if (stopping || !wait_for_work(lock)) break;
        }
        workers.erase(std::find(workers.begin(), workers.end(), &me));

        // Joining: each exiting thread joins the one that exited before it and leaves itself for the
        // next one (or for shutdown). That reaps retired threads without a registry of handles, and
        // joining the last one at shutdown transitively waits for all of them.
        --threads;
        const std::optional<pthread_t> previous = std::exchange(exited, pthread_self());
        if (threads == 0) done_cv.notify_all();
        lock.unlock();
        if (previous) pthread_join(*previous, nullptr);
        t_current_pool = nullptr;
    }

    void run_front(std::unique_lock<std::mutex>& lock, Worker& me) {
        {
            Task task = std::move(queue.front());
            queue.pop_front();
            me.running_since = Clock::now();
            lock.unlock();
            try {
                task.fn();
            } catch (const std::exception& e) {
                log().error("handler pool: a task threw: {}", e.what());
            } catch (...) {
                log().error("handler pool: a task threw a non-standard exception");
            }
        }  // the task's captures are destroyed here, outside the lock
        lock.lock();
        me.running_since = {};
        ++completed;
    }

    // Parks until claimed. Returns false when this thread should retire instead.
    bool wait_for_work(std::unique_lock<std::mutex>& lock) {
        IdleSlot slot;
        idle.push_back(&slot);
        const auto claimed = [&] { return slot.claimed; };
        if (threads > options.core_threads) {
            slot.cv.wait_for(lock, options.idle_timeout, claimed);
        } else {
            slot.cv.wait(lock, claimed);
        }
        if (slot.claimed) {
            --waking;
            return true;
        }
        // Timed out unclaimed. The decision is taken under the lock, so a task submitted meanwhile
        // either claimed this slot (handled above) or sees this thread gone and grows the pool.
        idle.erase(std::find(idle.begin(), idle.end(), &slot));
        return !queue.empty() || threads <= options.core_threads;
    }

    // Sleeps while the queue is empty; otherwise wakes when the oldest task becomes overdue and adds
    // one thread if nobody can take it, then waits for that thread to start before adding another.
    void supervise() {
        pthread_setname_np(pthread_self(), "mcp-pool-sup");
        std::unique_lock lock(mu);
        while (!stopping || !queue.empty()) {
            if (queue.empty()) {
                supervisor_parked = true;
                supervisor_cv.wait(lock);
                supervisor_parked = false;
                continue;
            }
            const auto due = queue.front().queued_at + options.grow_after;
            if (Clock::now() < due) {
                supervisor_cv.wait_until(lock, due);
                continue;
            }
            if (starting == 0 && idle.empty() && uncovered_locked() && can_grow_locked() &&
                workers.size() - stalled_locked(Clock::now()) < options.core_threads && spawn(lock)) {
                continue;
            }
            if (threads >= options.max_threads && !stopping && at_bound_log.due()) {
                log().warn("handler pool: all {} threads are busy; {} calls wait (--max-handler-threads)", threads,
                           queue.size());
            }
            // An idle or starting worker is about to take the task, the pool is at its bound, or a
            // thread could not be created: look again later.
            supervisor_cv.wait_for(lock, recheck);
        }
    }

    bool try_submit(std::function<void()>& fn, Admission admission) {
        std::unique_lock lock(mu);
        if (stopping || (admission == Admission::bounded && queue.size() >= options.queue_capacity)) {
            ++rejected;
            if (!stopping && !full_logged) {
                full_logged = true;
                log().warn("handler pool: queue full ({} tasks), refusing calls", queue.size());
            }
            return false;
        }
        full_logged = false;
        queue.push_back(Task{std::move(fn), Clock::now()});
        if (!idle.empty()) {
            claim_idle_locked();
            return true;
        }
        if (!uncovered_locked()) return true;
        if (supervisor_parked) supervisor_cv.notify_one();
        // Workers inside a BlockingScope do not count towards the core: a call arriving while they
        // wait gets a thread at once rather than after grow_after.
        if (threads - blocked < options.core_threads && can_grow_locked()) spawn(lock);
        return true;
    }

    void begin_blocking() {
        std::unique_lock lock(mu);
        ++blocked;
        if (uncovered_locked() && can_grow_locked()) spawn(lock);
    }

    void end_blocking() {
        std::lock_guard lock(mu);
        --blocked;
    }

    void shutdown() {
        std::unique_lock lock(mu);
        if (!stopping) {
            stopping = true;
            while (!idle.empty()) claim_idle_locked();
            supervisor_cv.notify_one();
        }
        if (t_current_pool == owner) {
            log().error("handler pool: shutdown called from one of its own tasks; it cannot wait for itself");
            return;
        }
        // One caller reaps the threads; any concurrent caller waits until it is done.
        if (reaper_claimed) {
            done_cv.wait(lock, [&] { return reaped; });
            return;
        }
        reaper_claimed = true;
        // With no core threads, tasks can be queued while no thread is alive yet: wait for both.
        done_cv.wait(lock, [&] { return threads == 0 && queue.empty(); });
        supervisor_cv.notify_one();  // the queue is empty for good: let the supervisor end
        const std::optional<pthread_t> last = std::exchange(exited, std::nullopt);
        lock.unlock();
        if (supervisor.joinable()) supervisor.join();
        if (last) pthread_join(*last, nullptr);
        lock.lock();
        reaped = true;
        done_cv.notify_all();
    }

    HandlerPoolStats stats() const {
        std::lock_guard lock(mu);
        HandlerPoolStats s;
        s.threads = threads;
        s.idle = idle.size();
        s.blocked = blocked;
        s.queued = queue.size();
        s.peak_threads = peak;
        s.rejected = rejected;
        s.completed = completed;
        return s;
    }

    HandlerPool* const owner;
    ExecutionOptions options;
    std::chrono::milliseconds recheck{};

    mutable std::mutex mu;
    std::deque<Task> queue;
    std::vector<IdleSlot*> idle;
    std::vector<Worker*> workers;
    std::condition_variable supervisor_cv;
    std::condition_variable done_cv;  // threads reached 0, or the reaping ended
    std::size_t threads = 0;
    std::size_t starting = 0;
    std::size_t waking = 0;
    std::size_t blocked = 0;
    std::size_t peak = 0;
    std::size_t rejected = 0;
    std::size_t completed = 0;  // tasks that finished, whether they returned or threw
    bool supervisor_parked = false;
    bool stopping = false;
    bool full_logged = false;  // one warning per run of refusals, not one per refused call
    RateLimitedLog at_bound_log;
    RateLimitedLog spawn_failure_log;
    bool reaper_claimed = false;
    bool reaped = false;
    std::optional<pthread_t> exited;  // the last worker to exit, not yet joined
    std::thread supervisor;
};

std::size_t core_threads_of(const ExecutionOptions& options) {
    return options.core_threads != 0 ? options.core_threads : std::max(2u, std::thread::hardware_concurrency());
}

HandlerPool::HandlerPool(ExecutionOptions options) : impl_(std::make_unique<Impl>(this, options)) { impl_->start(); }

HandlerPool::~HandlerPool() { shutdown(); }

bool HandlerPool::try_submit(std::function<void()> task, Admission admission) {
    return impl_->try_submit(task, admission);
}

HandlerPoolStats HandlerPool::stats() const { return impl_->stats(); }

void HandlerPool::shutdown() { impl_->shutdown(); }

void HandlerPool::begin_blocking() { impl_->begin_blocking(); }

void HandlerPool::end_blocking() { impl_->end_blocking(); }

HandlerPool* HandlerPool::current() { return t_current_pool; }

}  // namespace mcp::detail
