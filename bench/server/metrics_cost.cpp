// mcp-cpp-bench-metrics-cost: the CPU time one tools/call costs with metrics recorded and without,
// in process (LocalConnection, the demo's inline echo, a 2026-07-28 request), measured as this
// thread's CPU time so that other processes on the machine count for little. Off and on alternate
// in blocks; it prints each block and the medians (docs/adr/0016-operating-it.md).
//   mcp-cpp-bench-metrics-cost [CALLS_PER_BLOCK [BLOCKS]]
#include <mcp/mcp.hpp>

#include "util/metrics.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

struct EchoInput {
    std::string text;
};
BOOST_DESCRIBE_STRUCT(EchoInput, (), (text))

namespace {

double thread_cpu_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const long calls = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 20000;
    const long blocks = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 10;
    if (calls < 1 || blocks < 1) {
        std::fprintf(stderr, "usage: %s [CALLS_PER_BLOCK [BLOCKS]]\n", argv[0]);
        return 2;
    }
    mcp::Server server{{.name = "mcp-cpp-bench-metrics-cost", .version = "0.1.0"}};
    server.tool({.name = "echo", .description = "Returns its text argument unchanged", .runs_inline = true},
                [](const EchoInput& in) { return in.text; });
    mcp::LocalConnection connection(server);
    const auto request = boost::json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{
        "name":"echo","arguments":{"text":"mcp-cpp-bench-echo:0123456789abcdefghijklmnopqrstuvwxyz"},
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                 "io.modelcontextprotocol/clientCapabilities":{}}}})");

    std::vector<double> off;
    std::vector<double> on;
    for (long block = 0; block < 2 * blocks; ++block) {
        const bool recording = block % 2 == 1;
        mcp::detail::metrics::g_enabled.store(recording);
        const double start = thread_cpu_ns();
        for (long i = 0; i < calls; ++i) {
            if (connection.send(request).size() != 1) return 1;
        }
        const double per_call = (thread_cpu_ns() - start) / static_cast<double>(calls);
        (recording ? on : off).push_back(per_call);
        std::printf("block %ld metrics %s: %.0f ns CPU per call\n", block / 2 + 1, recording ? "on " : "off", per_call);
    }
    const double m_off = median(off);
    const double m_on = median(on);
    std::printf("median: off %.0f ns, on %.0f ns per call: +%.0f ns (%.1f%%)\n", m_off, m_on, m_on - m_off,
                100.0 * (m_on - m_off) / m_off);
    return 0;
}
