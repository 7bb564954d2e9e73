// Line framing of the stdio transport: bounded lines, CR/LF, partial reads, the writer's ordering.
#include "transport/stdio/line_writer.hpp"
#include "util/line_reader.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <thread>

using mcp::detail::LineReader;
using mcp::detail::LineWriter;

namespace {

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
    std::thread reader([&] {
        char buf[4096];
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0) received.append(buf, static_cast<std::size_t>(n));
    });
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
