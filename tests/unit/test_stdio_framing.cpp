// Line framing of the stdio transport: bounded lines, CR/LF, partial reads, the writer's ordering
// and the lines a thread holds back until its read is answered.
#include "transport/stdio/line_writer.hpp"
#include "util/line_reader.hpp"

#include <gtest/gtest.h>

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using mcp::detail::LineReader;
using mcp::detail::LineWriter;

namespace {

// A thread that reads `fd` until its writing end closes, into `out`.
std::thread read_to_end(int fd, std::string& out) {
    return std::thread([fd, &out] {
        char buf[4096];
        ssize_t n;
        while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    });
}

struct Collected {
    std::vector<std::string> lines;
    std::vector<std::size_t> oversized;
    LineReader reader(std::size_t max) {
        return LineReader(max, {.line = [this](std::string_view l) { lines.emplace_back(l); },
                                .oversized = [this](std::size_t n) { oversized.push_back(n); }});
    }
};

}  // namespace

TEST(LineReader, SplitsAcrossReadsAndStripsCarriageReturns) {
    Collected c;
    auto r = c.reader(100);
    r.feed("{\"a\":1}\r\n{\"b\"");
    r.feed(":2}\n\n   \n{\"c\":3}");
    r.finish();
    EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
    EXPECT_TRUE(c.oversized.empty());
}

TEST(LineReader, OverlongLinesAreSkippedWithoutBufferingAndReported) {
    Collected c;
    auto r = c.reader(8);
    r.feed("short\n");
    for (int i = 0; i < 1000; ++i) r.feed(std::string(10000, 'x'));  // 10 MB with no newline
    r.feed("tail\nok\n");
    r.finish();
    EXPECT_EQ(c.lines, (std::vector<std::string>{"short", "ok"}));
    ASSERT_EQ(c.oversized.size(), 1u);
    EXPECT_EQ(c.oversized[0], 10000u * 1000u + 4u);
}

TEST(LineReader, ExactlyTheLimitIsAccepted) {
    Collected c;
    auto r = c.reader(4);
    r.feed("abcd\nabcde\n");
    EXPECT_EQ(c.lines, (std::vector<std::string>{"abcd"}));
    EXPECT_EQ(c.oversized.size(), 1u);
    // The limit is on the line: a CRLF's CR does not count.
    r.feed("wxyz\r\nvwxyz\r\n");
    EXPECT_EQ(c.lines, (std::vector<std::string>{"abcd", "wxyz"}));
    EXPECT_EQ(c.oversized.size(), 2u);
}

TEST(LineWriter, WritesWholeLinesInOrderFromManyThreads) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    std::string received;
    std::thread reader = read_to_end(fds[0], received);
    {
        LineWriter writer(fds[1], 1024);  // a small backlog forces producers to wait
        std::vector<std::thread> producers;
        producers.reserve(4);
        for (int t = 0; t < 4; ++t) {
            producers.emplace_back([&, t] {
                for (int i = 0; i < 500; ++i) writer.write(std::string(50, static_cast<char>('a' + t)));
            });
        }
        for (auto& p : producers) p.join();
        writer.flush();
    }
    close(fds[1]);
    reader.join();
    close(fds[0]);
    std::size_t lines = 0, start = 0;
    for (std::size_t nl; (nl = received.find('\n', start)) != std::string::npos; start = nl + 1, ++lines) {
        const std::string_view line(received.data() + start, nl - start);
        ASSERT_EQ(line.size(), 50u);
        EXPECT_EQ(line.find_first_not_of(line[0]), std::string_view::npos) << "interleaved line";
    }
    EXPECT_EQ(lines, 2000u);
}

TEST(LineWriter, ABrokenPipeIsReportedNotFatal) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN);
    LineWriter writer(fds[1]);
    writer.write("first");
    writer.flush();
    EXPECT_FALSE(writer.write("second"));
    close(fds[1]);
}

namespace {

// What the pipe holds now, without waiting.
std::string available(int fd) {
    std::string out;
    char buf[4096];
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
}

}  // namespace

TEST(LineWriter, LinesOfAHoldingThreadWaitForItsEndAndGoTogether) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    {
        LineWriter writer(fds[1]);
        {
            const LineWriter::Held together(writer);
            writer.write("one");
            writer.write("two");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the writer thread had its chance
            EXPECT_EQ(available(fds[0]), "");
        }
        writer.flush();
        EXPECT_EQ(available(fds[0]), "one\ntwo\n");
    }
    close(fds[1]);
    close(fds[0]);
}

TEST(LineWriter, AnotherThreadsLineIsWrittenAtOnceAndTakesTheHeldOnesAlong) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    {
        LineWriter writer(fds[1]);
        const LineWriter::Held together(writer);
        writer.write("held");
        std::thread([&] {
            writer.write("other");
            writer.flush();  // returns only once both are written: the held line went along
        }).join();
        EXPECT_EQ(available(fds[0]), "held\nother\n");
    }
    close(fds[1]);
    close(fds[0]);
}

TEST(LineWriter, AHoldingThreadWaitingForRoomLetsWhatItHeldGo) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    std::string received;
    std::thread reader = read_to_end(fds[0], received);
    {
        LineWriter writer(fds[1], 16);  // two lines fill the backlog: the third must wait for room
        {
            const LineWriter::Held together(writer);
            for (int i = 0; i < 10; ++i) EXPECT_TRUE(writer.write("line-" + std::to_string(i)));
        }
        writer.flush();
    }
    close(fds[1]);
    reader.join();
    close(fds[0]);
    EXPECT_EQ(received, "line-0\nline-1\nline-2\nline-3\nline-4\nline-5\nline-6\nline-7\nline-8\nline-9\n");
}
