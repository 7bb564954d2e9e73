#pragma once
// Writes whole lines to a file descriptor from one thread, so concurrent handlers never interleave
// and never block on a slow reader beyond a bounded backlog.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace mcp::detail {

class LineWriter {
public:
    explicit LineWriter(int fd, std::size_t max_backlog_bytes = 64 * 1024 * 1024);
    // Writes what is queued, then stops.
    ~LineWriter();
    LineWriter(const LineWriter&) = delete;
    LineWriter& operator=(const LineWriter&) = delete;

    // Queues `line` plus '\n'. Blocks while the backlog is full. False once the descriptor
    // failed (the reader went away); the line is dropped.
    bool write(std::string line);
    // Waits until everything queued so far is written (or the descriptor failed).
    void flush();
    // Waits while the backlog is over half full or a write() is waiting for room: the reader of
    // stdin calls it, so a client that stops reading stops being read and its calls cannot pile
    // up in memory.
    void wait_for_room();
    // While a Held of the calling thread lives, that thread's lines wait for its end: the replies
    // to one read of stdin, answered inline, then go out in one write instead of one each. Lines
    // of other threads are written as they come (and take the held ones along).
    class Held {
    public:
        explicit Held(LineWriter& writer);
        ~Held();
        Held(const Held&) = delete;
        Held& operator=(const Held&) = delete;

    private:
        LineWriter& writer_;
    };

private:
    void run();
    // With mutex_ held: what is queued goes now, a Held's lines too.
    void send_now();

    int fd_;
    std::size_t max_backlog_;
    std::mutex mutex_;
    std::condition_variable wake_;     // the writer thread waits for lines
    std::condition_variable drained_;  // producers wait for room / flush
    std::deque<std::string> queue_;
    std::size_t backlog_ = 0;
    std::size_t waiting_writes_ = 0;  // write() calls waiting for room
    bool writing_ = false;
    bool stopping_ = false;
    bool broken_ = false;
    std::thread::id holder_;  // the thread of the live Held; none without one
    bool due_ = false;        // a queued line may not wait for the Held to end
    std::thread thread_;
};

}  // namespace mcp::detail
