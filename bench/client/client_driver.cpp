// mcp-cpp-bench-client: mcp::Client calling the demo's echo tool with a fixed number of calls in
// flight, for bench/run.sh's client suite. It prints one line per phase (the warm-up, phase 0, then
// each repetition), in the form of the TypeScript driver's (bench/peers/client-ts.mjs):
//
//   BENCH_RESULT {"phase":1,"calls":N,"ok":N,"failures":0,"duration_us":D,"client_cpu_us":C,"server_cpu_us":S}
//
// client_cpu_us is getrusage(RUSAGE_SELF) of this process (every thread of the client: its I/O
// thread and its callback pool); server_cpu_us is utime + stime of the server from /proc: the pid
// --server-pid names (HTTP), or this process's child (stdio). Every reply is checked: the one text
// block equal to what was sent, no isError.
//
//   mcp-cpp-bench-client [options] --url http://127.0.0.1:PORT/mcp --server-pid PID
//   mcp-cpp-bench-client [options] -- COMMAND ARGS...     (stdio: the server this starts)
//   options: --protocol auto|2025-11-25|2026-07-28 (auto)  --inflight N (32)  --warmup S (1)
//            --seconds S (10)  --reps N (3); the text is $BENCH_TEXT
#include <mcp/client/client.hpp>
#include <mcp/client/http.hpp>
#include <mcp/client/stdio.hpp>

#include <boost/json/serialize.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

struct Args {
    std::string url;
    std::vector<std::string> command;
    std::string protocol = "auto";
    int server_pid = 0;
    int inflight = 32;
    double warmup = 1;
    double seconds = 10;
    int reps = 3;
};

Args parse(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&] {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return std::string(argv[++i]);
        };
        if (arg == "--") {
            a.command.assign(argv + i + 1, argv + argc);
            break;
        }
        if (arg == "--url")
            a.url = value();
        else if (arg == "--protocol")
            a.protocol = value();
        else if (arg == "--server-pid")
            a.server_pid = std::stoi(value());
        else if (arg == "--inflight")
            a.inflight = std::stoi(value());
        else if (arg == "--warmup")
            a.warmup = std::stod(value());
        else if (arg == "--seconds")
            a.seconds = std::stod(value());
        else if (arg == "--reps")
            a.reps = std::stoi(value());
        else
            throw std::invalid_argument("unknown option " + arg);
    }
    if (a.url.empty() == a.command.empty()) throw std::invalid_argument("give --url or a command after --");
    if (!a.url.empty() && a.server_pid <= 0) throw std::invalid_argument("--url needs --server-pid");
    return a;
}

long long client_cpu_us() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const auto us = [](const timeval& t) { return static_cast<long long>(t.tv_sec) * 1'000'000 + t.tv_usec; };
    return us(usage.ru_utime) + us(usage.ru_stime);
}

// utime + stime of a process, all its threads, from /proc/<pid>/stat.
long long process_cpu_us(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string field;
    long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {  // fields 14 and 15 (1-based) of stat
        if (i == 14) utime = std::stoll(field);
        if (i == 15) stime = std::stoll(field);
    }
    return (utime + stime) * 1'000'000 / ::sysconf(_SC_CLK_TCK);
}

// The stdio server: this process's one child.
int child_pid() {
    std::ifstream in("/proc/self/task/" + std::to_string(::getpid()) + "/children");
    int pid = 0;
    in >> pid;
    return pid;
}

std::string_view text_of(const mcp::CallToolResult& result) {
    if (result.content.size() != 1) return {};
    const auto* t = std::get_if<mcp::TextContent>(&result.content.front());
    return t != nullptr ? std::string_view(t->text) : std::string_view();
}

// Keeps `inflight` calls of echo going, each reply checked, until stopped.
class Load {
public:
    Load(mcp::Client& client, std::string text, int inflight)
        : client_(client), text_(std::move(text)), inflight_(inflight) {}

    void start() {
        for (int i = 0; i < inflight_; ++i) next();
    }
    void stop() {
        stopping_ = true;
        std::unique_lock lock(mutex_);
        drained_.wait_for(lock, std::chrono::seconds(60), [&] { return outstanding_ == 0; });
    }
    long long ok() const { return ok_; }
    long long failures() const { return failures_; }
    std::string first_error() {
        std::lock_guard lock(mutex_);
        return first_error_;
    }

private:
    void next() {
        {
            std::lock_guard lock(mutex_);
            ++outstanding_;
        }
        // The completion only counts and starts the next call: it runs where the call settles
        // (inline_completion), as a throughput-minded host would have it.
        client_.async_call_tool("echo", {{"text", text_}},
                                {.timeout = std::chrono::seconds(30), .inline_completion = true},
                                [this](std::exception_ptr error, mcp::CallToolResult result) { done(error, result); });
    }

    void done(const std::exception_ptr& error, const mcp::CallToolResult& result) {
        std::string why;
        if (error) {
            try {
                std::rethrow_exception(error);
            } catch (const std::exception& e) {
                why = e.what();
            }
        } else if (result.is_error || text_of(result) != text_) {
            why = "a wrong reply: " + std::string(text_of(result));
        }
        if (why.empty()) {
            ++ok_;
        } else {
            ++failures_;
            std::lock_guard lock(mutex_);
            if (first_error_.empty()) first_error_ = why;
        }
        if (!stopping_) next();
        std::lock_guard lock(mutex_);
        if (--outstanding_ == 0) drained_.notify_all();
    }

    mcp::Client& client_;
    const std::string text_;
    const int inflight_;
    std::atomic<bool> stopping_{false};
    std::atomic<long long> ok_{0};
    std::atomic<long long> failures_{0};
    std::mutex mutex_;
    std::condition_variable drained_;
    int outstanding_ = 0;
    std::string first_error_;
};

std::shared_ptr<mcp::ClientTransport> transport_for(const Args& a) {
    if (!a.url.empty()) return std::make_shared<mcp::HttpTransport>(mcp::HttpServerParams{.url = a.url});
    return std::make_shared<mcp::StdioTransport>(
        mcp::StdioServerParams{.command = a.command.front(), .args = {a.command.begin() + 1, a.command.end()}});
}

}  // namespace

int main(int argc, char** argv) try {
    const Args a = parse(argc, argv);
    const char* text = std::getenv("BENCH_TEXT");
    mcp::ClientOptions options;
    options.protocol_version = a.protocol;
    mcp::Client client(transport_for(a), options);
    client.connect();
    const int server = a.url.empty() ? child_pid() : a.server_pid;
    std::cerr << "connected: " << client.protocol_version() << ", server pid " << server << '\n';

    Load load(client, text != nullptr ? text : "mcp-cpp-bench-client", a.inflight);
    load.start();
    for (int phase = 0; phase <= a.reps; ++phase) {
        const auto seconds = phase == 0 ? a.warmup : a.seconds;
        const auto ok = load.ok(), failures = load.failures();
        const auto client_cpu = client_cpu_us(), server_cpu = process_cpu_us(server);
        const auto start = std::chrono::steady_clock::now();
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        const auto duration =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
        const auto done_ok = load.ok() - ok, done_failed = load.failures() - failures;
        std::cout << "BENCH_RESULT {\"phase\":" << phase << ",\"calls\":" << done_ok + done_failed
                  << ",\"ok\":" << done_ok << ",\"failures\":" << done_failed << ",\"duration_us\":" << duration
                  << ",\"client_cpu_us\":" << client_cpu_us() - client_cpu
                  << ",\"server_cpu_us\":" << process_cpu_us(server) - server_cpu << ",\"protocol\":\""
                  << client.protocol_version() << "\"}" << std::endl;
    }
    load.stop();
    client.close();
    if (load.failures() > 0) {
        std::cerr << load.failures() << " calls failed; the first: " << load.first_error() << '\n';
        return 1;
    }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "mcp-cpp-bench-client: " << e.what() << '\n';
    std::cout << "BENCH_RESULT {\"error\":" << boost::json::serialize(boost::json::string(e.what())) << "}"
              << std::endl;
    return 1;
}
