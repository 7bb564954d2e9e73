#include "transport/stdio/line_writer.hpp"

#include "util/log.hpp"

#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace mcp::detail {

LineWriter::LineWriter(int fd, std::size_t max_backlog_bytes)
    : fd_(fd), max_backlog_(max_backlog_bytes), thread_([this] { run(); }) {}

LineWriter::~LineWriter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

bool LineWriter::write(std::string line) {
    line += '\n';
    std::unique_lock lock(mutex_);
    // A single line larger than the whole backlog is still let through once the queue is empty.
    const auto has_room = [&] { return broken_ || backlog_ == 0 || backlog_ + line.size() <= max_backlog_; };
    if (!has_room()) {
        send_now();  // what a Held kept back must go, or there is never room
        ++waiting_writes_;
        drained_.wait(lock, has_room);
        --waiting_writes_;
        drained_.notify_all();  // wait_for_room() looks at the count
    }
    if (broken_) return false;
    backlog_ += line.size();
    queue_.push_back(std::move(line));
    if (holder_ != std::this_thread::get_id()) send_now();
    return true;
}

void LineWriter::send_now() {
    due_ = true;
    wake_.notify_one();
}

LineWriter::Held::Held(LineWriter& writer) : writer_(writer) {
    std::lock_guard lock(writer_.mutex_);
    writer_.holder_ = std::this_thread::get_id();
}

LineWriter::Held::~Held() {
    {
        std::lock_guard lock(writer_.mutex_);
        writer_.holder_ = std::thread::id();
        if (writer_.queue_.empty()) return;
    }
    writer_.wake_.notify_one();
}

void LineWriter::flush() {
    std::unique_lock lock(mutex_);
    if (!queue_.empty()) send_now();  // held lines too
    drained_.wait(lock, [&] { return broken_ || (queue_.empty() && !writing_); });
}

void LineWriter::wait_for_room() {
    std::unique_lock lock(mutex_);
    drained_.wait(lock, [&] { return broken_ || (backlog_ <= max_backlog_ / 2 && waiting_writes_ == 0); });
}

void LineWriter::run() {
    std::string batch;
    std::unique_lock lock(mutex_);
    while (true) {
        wake_.wait(lock, [&] { return stopping_ || (!queue_.empty() && (due_ || holder_ == std::thread::id())); });
        if (queue_.empty()) return;  // stopping, nothing left
        // Take everything queued and write it with as few syscalls as possible.
        batch.clear();
        for (auto& line : queue_) batch += line;
        const std::size_t taken = queue_.size();
        due_ = false;
        writing_ = true;
        lock.unlock();

        std::size_t done = 0;
        bool failed = false;
        while (done < batch.size()) {
            const ssize_t n = ::write(fd_, batch.data() + done, batch.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                log().warn("stdout write failed: {}", std::strerror(errno));
                failed = true;
                break;
            }
            done += static_cast<std::size_t>(n);
        }

        lock.lock();
        for (std::size_t i = 0; i < taken; ++i) {
            backlog_ -= queue_.front().size();
            queue_.pop_front();
        }
        writing_ = false;
        if (failed) {
            broken_ = true;
            queue_.clear();
            backlog_ = 0;
        }
        drained_.notify_all();
    }
}

}  // namespace mcp::detail
