#include <mcp/client/stdio.hpp>

#include "client/stdio/child_process.hpp"
#include "util/line_reader.hpp"
#include "util/log.hpp"

#include <fmt/format.h>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <bit>
#include <csignal>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace mcp {

namespace {

using Clock = std::chrono::steady_clock;
using Descriptor = boost::asio::posix::stream_descriptor;

// How often the shutdown looks at the process group, and, without a pidfd, at the child.
constexpr std::chrono::milliseconds kClosingTick{20};
constexpr std::chrono::milliseconds kRunningTick{100};
// What is queued goes in one gathered write, up to this many messages: with many calls in flight,
// one system call carries the requests of a whole turn of the I/O loop.
constexpr std::size_t kMaxWriteBatch = 64;

struct Queued {
    std::string text;  // with its '\n'
    std::function<void(const TransportFailure&)> failed;
};

}  // namespace

// Everything but the public members runs on the strand.
struct StdioTransport::Impl : std::enable_shared_from_this<StdioTransport::Impl> {
    explicit Impl(StdioServerParams p)
        : params(std::move(p)),
          out_lines(params.max_message_bytes, {.line = [this](std::string_view line) { on_line(line); },
                                               .oversized = [this](std::size_t bytes) { on_oversized(bytes); }}),
          err_lines(params.max_stderr_line_bytes,
                    {.line = [this](std::string_view line) { on_stderr(line); },
                     .oversized =
                         [this](std::size_t bytes) {
                             on_stderr(fmt::format("[a stderr line of {} bytes, left out]", bytes));
                         }}) {}

    StdioServerParams params;
    TransportEvents events;
    std::optional<boost::asio::strand<boost::asio::io_context::executor_type>> strand;
    std::unique_ptr<Descriptor> in, out, err, exit_fd;
    std::unique_ptr<boost::asio::steady_timer> timer;
    pid_t pid = 0;
    bool watching_exit = false;

    detail::LineReader out_lines, err_lines;
    std::array<char, 64 * 1024> out_buffer{};
    std::array<char, 8 * 1024> err_buffer{};

    std::deque<Queued> queue;  // references stay valid as it grows: the write in progress uses them
    std::size_t queued_bytes = 0;
    bool writing = false;
    bool reading_lines = false;                    // on_line is handing over what one read brought
    std::vector<boost::asio::const_buffer> batch;  // the write in progress: the first batch.size() queued

    std::optional<int> exit_status;
    bool closing = false;
    Clock::time_point closing_since;
    std::optional<Clock::time_point> term_sent;
    bool killed = false;
    bool reported = false;
    std::string reason;

    Clock::time_point stderr_window;
    std::size_t stderr_lines = 0;
    std::size_t stderr_dropped = 0;
    std::uint64_t oversized = 0;

    template <class F>
    void on_strand(F&& f) {
        boost::asio::post(*strand, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { f(*self); });
    }

    void start() {
        read_stdout();
        read_stderr();
        advance();
    }

    // The pidfd turns readable when the child exits.
    void watch_exit() {
        if (watching_exit || !exit_fd) return;
        watching_exit = true;
        exit_fd->async_wait(
            Descriptor::wait_read,
            boost::asio::bind_executor(*strand, [self = shared_from_this()](boost::system::error_code ec) {
                self->watching_exit = false;
                if (!ec) self->advance();
            }));
    }

    // ---- Reading.

    void read_stdout() {
        out->async_read_some(boost::asio::buffer(out_buffer),
                             boost::asio::bind_executor(
                                 *strand, [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                                     if (n > 0) self->feed_stdout(n);
                                     if (!ec && self->out) return self->read_stdout();
                                     self->out_lines.finish();
                                     if (ec != boost::asio::error::operation_aborted) self->on_stdout_end();
                                 }));
    }

    void feed_stdout(std::size_t n) {
        reading_lines = true;
        out_lines.feed(std::string_view(out_buffer.data(), n));
        reading_lines = false;
        if (!writing) write_next();
    }

    void read_stderr() {
        err->async_read_some(boost::asio::buffer(err_buffer),
                             boost::asio::bind_executor(
                                 *strand, [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                                     if (n > 0) self->err_lines.feed(std::string_view(self->err_buffer.data(), n));
                                     if (!ec && self->err) return self->read_stderr();
                                     self->err_lines.finish();
                                 }));
    }

    void on_line(std::string_view line) {
        if (!reported && !line.empty()) events.message(line);
    }

    void on_oversized(std::size_t bytes) {
        if (std::has_single_bit(++oversized))
            detail::log().warn("client: dropped a {} byte line from the server (limit {})", bytes,
                               params.max_message_bytes);
    }

    // At most max_stderr_lines_per_second lines a second go on; the rest are counted and said once.
    void on_stderr(std::string_view line) {
        if (reported || !events.diagnostic) return;
        const auto now = Clock::now();
        if (now - stderr_window >= std::chrono::seconds(1)) {
            if (stderr_dropped > 0) events.diagnostic(fmt::format("[{} stderr lines dropped]", stderr_dropped));
            stderr_window = now;
            stderr_lines = 0;
            stderr_dropped = 0;
        }
        if (stderr_lines++ < params.max_stderr_lines_per_second) {
            events.diagnostic(line);
        } else {
            ++stderr_dropped;
        }
    }

    // The server closed its output: nothing more can come back, so it is let go.
    void on_stdout_end() {
        if (!closing) begin_close("the server closed its output");
        advance();
    }

    // ---- Writing.

    // Whether enqueue would take it rather than fail it.
    bool accepts(std::size_t bytes) const {
        return !closing && !reported && queued_bytes + bytes <= params.max_queued_bytes;
    }

    void enqueue(Queued q) {
        if (closing || reported) {
            q.failed({"the server's input is closed", 0, {}});
            return;
        }
        if (!accepts(q.text.size())) {
            q.failed({"the server is not reading its input", 0, {}});
            return;
        }
        queued_bytes += q.text.size();
        queue.push_back(std::move(q));
        // Requests sent by completions of what was just read go together once it is all read.
        if (!writing && !reading_lines) write_next();
    }

    void write_next() {
        if (queue.empty() || !in) {
            writing = false;
            return;
        }
        writing = true;
        batch.clear();
        for (std::size_t i = 0; i < queue.size() && i < kMaxWriteBatch; ++i)
            batch.emplace_back(queue[i].text.data(), queue[i].text.size());
        boost::asio::async_write(
            *in, batch,
            boost::asio::bind_executor(*strand, [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                self->on_written(ec);
            }));
    }

    void on_written(boost::system::error_code ec) {
        if (queue.empty()) return;
        if (ec) {
            fail_queue(closing ? "the server's input is closed" : "the server stopped reading: " + ec.message());
            writing = false;
            return;
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            queued_bytes -= queue.front().text.size();
            queue.pop_front();
        }
        write_next();
    }

    void fail_queue(const std::string& why) {
        auto failing = std::move(queue);
        queue.clear();
        queued_bytes = 0;
        for (auto& q : failing) q.failed({why, 0, {}});
    }

    // ---- The end (basic/transports/stdio.mdx, "Shutdown"): stdin closed, then SIGTERM, then SIGKILL.

    void begin_close(std::string why) {
        closing = true;
        closing_since = Clock::now();
        reason = std::move(why);
        fail_queue("the transport is closing");
        if (in) in.reset();  // the server's stdin ends: its signal to exit
        advance();
    }

    void advance() {
        if (reported) return;
        const auto now = Clock::now();
        if (!exit_status) exit_status = detail::try_reap(pid);
        if (exit_status && !closing) {
            // Died on its own: what it left in its group has nobody to serve.
            detail::signal_group(pid, SIGKILL);
            return report(fmt::format("the server exited with status {}", *exit_status));
        }
        if (!exit_status) watch_exit();
        if (!closing) return tick(exit_fd ? std::chrono::milliseconds(0) : kRunningTick);
        const auto grace = params.shutdown_grace;
        if (!exit_status) {
            if (!term_sent && now - closing_since >= grace) {
                detail::signal_group(pid, SIGTERM);
                term_sent = now;
            } else if (term_sent && !killed && now - *term_sent >= grace) {
                detail::signal_group(pid, SIGKILL);
                killed = true;
            }
            return tick(kClosingTick);
        }
        // The server has exited; what it started in its group goes too.
        if (!detail::signal_group(pid, 0)) return report(reason);
        if (!term_sent) {
            detail::signal_group(pid, SIGTERM);
            term_sent = now;
        }
        if (killed || now - *term_sent >= grace) {
            detail::signal_group(pid, SIGKILL);
            return report(reason);
        }
        tick(kClosingTick);
    }

    void tick(std::chrono::milliseconds after) {
        if (after.count() == 0 || !timer) return;
        timer->expires_after(after);
        timer->async_wait(
            boost::asio::bind_executor(*strand, [self = shared_from_this()](boost::system::error_code ec) {
                if (!ec) self->advance();
            }));
    }

    // Reports the end once, and lets go of every descriptor and timer: the client's I/O context
    // may stop after this.
    void report(const std::string& why) {
        if (stderr_dropped > 0 && events.diagnostic)
            events.diagnostic(fmt::format("[{} stderr lines dropped]", stderr_dropped));
        reported = true;
        fail_queue("the transport is closed");
        in.reset();
        out.reset();
        err.reset();
        exit_fd.reset();
        timer.reset();
        if (events.closed) events.closed(why);
    }
};

StdioTransport::StdioTransport(StdioServerParams params) : impl_(std::make_shared<Impl>(std::move(params))) {}

StdioTransport::~StdioTransport() = default;

void StdioTransport::open(boost::asio::io_context& io, TransportEvents events) {
    if (impl_->strand) throw std::logic_error("StdioTransport::open() called twice");
    detail::ignore_sigpipe();
    const auto child = detail::spawn({impl_->params.command, impl_->params.args, impl_->params.env,
                                      impl_->params.inherit_env, impl_->params.cwd, impl_->params.limits});
    auto& s = *impl_;
    s.events = std::move(events);
    s.strand.emplace(boost::asio::make_strand(io.get_executor()));
    s.pid = child.pid;
    s.in = std::make_unique<Descriptor>(io, child.stdin_fd);
    s.out = std::make_unique<Descriptor>(io, child.stdout_fd);
    s.err = std::make_unique<Descriptor>(io, child.stderr_fd);
    if (const int fd = detail::exit_descriptor(child.pid); fd >= 0) s.exit_fd = std::make_unique<Descriptor>(io, fd);
    s.timer = std::make_unique<boost::asio::steady_timer>(io);
    s.stderr_window = Clock::now();
    impl_->on_strand([](Impl& self) { self.start(); });
}

void StdioTransport::send(OutboundMessage message) {
    if (!impl_->strand) {
        if (message.failed) message.failed({"the transport is not open", 0, {}});
        return;
    }
    Queued q{std::move(message.text), std::move(message.failed)};
    q.text += '\n';
    if (!q.failed) q.failed = [](const TransportFailure&) {};
    // On the strand already (a completion that runs inline sends its next request): queued at
    // once. A refusal still goes through the loop: its callback may send again, and must not
    // recurse into this.
    if (impl_->strand->running_in_this_thread() && impl_->accepts(q.text.size())) return impl_->enqueue(std::move(q));
    impl_->on_strand([q = std::move(q)](Impl& self) mutable { self.enqueue(std::move(q)); });
}

void StdioTransport::close() {
    if (!impl_->strand) return;
    impl_->on_strand([](Impl& self) {
        if (!self.closing && !self.reported) self.begin_close("the client closed the connection");
    });
}

int StdioTransport::pid() const { return impl_->pid; }

}  // namespace mcp
