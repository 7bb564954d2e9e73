#include "arguments.hpp"

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace mcp_gateway {

const char* const kUsage =
    "mcp-cpp-gateway: the MCP servers a host configuration names, served as one MCP server.\n"
    "\n"
    "Usage: mcp-cpp-gateway --servers FILE [mcp::run's options, e.g. --http 127.0.0.1:8080]\n"
    "\n"
    "Gateway:\n"
    "  --servers FILE    The servers: {\"mcpServers\": {...}} (Claude Desktop, Cursor) or VS Code's\n"
    "                    {\"servers\": {...}}; env MCP_SERVERS. Each server's tools and prompts are\n"
    "                    <server>_<name>, its resource URIs scheme://<server>/...\n"
    "  --no-prefix       Serve the one server of FILE under its own names and URIs (a gateway\n"
    "                    in front of a single server)\n"
    "  --idle-stop DURATION\n"
    "                    Stop a stdio server no call used for DURATION (e.g. 10m; ms, s, m, h); its\n"
    "                    entries stay listed and the next call starts it again\n"
    "  --max-children N  Run at most N stdio servers at once: starting another stops the least\n"
    "                    recently used one with no call in flight (all busy: the call fails)\n"
    "  --child-memory MiB, --child-cpu SECONDS, --child-files N, --child-processes N\n"
    "                    Resource limits of each stdio server's process (RLIMIT_DATA: heap and\n"
    "                    private mappings, not address space; RLIMIT_CPU; RLIMIT_NOFILE;\n"
    "                    RLIMIT_NPROC, per user). A server's own \"limits\" in FILE win\n"
    "                    ({\"memoryMiB\", \"cpuSeconds\", \"openFiles\", \"processes\"}). A server\n"
    "                    past one fails or dies, and is restarted with backoff\n"
    "\n";

namespace {

// "500ms", "30s", "10m", "1h": a positive whole number and its unit.
std::chrono::milliseconds parse_duration(std::string_view option, std::string_view text) {
    const auto digits = text.find_first_not_of("0123456789");
    const auto number = text.substr(0, digits);
    const auto unit = digits == std::string_view::npos ? std::string_view() : text.substr(digits);
    long long value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    const bool known = unit == "ms" || unit == "s" || unit == "m" || unit == "h";
    if (number.empty() || error != std::errc() || end != number.data() + number.size() || value <= 0 || !known ||
        value > 24LL * 3600 * 1000) {
        throw std::invalid_argument(std::string(option) + " needs a duration such as 500ms, 30s, 10m or 1h, not \"" +
                                    std::string(text) + "\"");
    }
    const std::chrono::milliseconds ms(value);
    if (unit == "s") return ms * 1000;
    if (unit == "m") return ms * 60'000;
    if (unit == "h") return ms * 3'600'000;
    return ms;
}

std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t max) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value == 0 || value > max)
        throw std::invalid_argument(std::string(option) + " needs a whole number from 1 to " + std::to_string(max) +
                                    ", not \"" + std::string(text) + "\"");
    return value;
}

// The option's value in `limits`, when it is one of the children's resource limits.
bool take_resource_limit(std::string_view option, std::string_view text, mcp::StdioLimits& limits) {
    using L = mcp::StdioLimits;
    if (option == "--child-memory")
        limits.memory_mib = parse_count(option, text, L::max_memory_mib);
    else if (option == "--child-cpu")
        limits.cpu_seconds = parse_count(option, text, L::max_cpu_seconds);
    else if (option == "--child-files")
        limits.open_files = parse_count(option, text, L::max_open_files);
    else if (option == "--child-processes")
        limits.processes = parse_count(option, text, L::max_processes);
    else
        return false;
    return true;
}

}  // namespace

GatewayArguments split_arguments(int argc, const char* const* argv, const char* servers_from_env) {
    GatewayArguments out;
    if (argc > 0) out.run_arguments.emplace_back(argv[0]);
    bool servers_given = false;
    auto take_servers = [&](std::string_view file) {
        if (servers_given) throw std::invalid_argument("--servers given twice");
        if (file.empty()) throw std::invalid_argument("--servers needs a file");
        servers_given = true;
        out.servers_file = file;
    };
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--servers") {
            if (i + 1 >= argc) throw std::invalid_argument("--servers needs a file");
            take_servers(argv[++i]);
        } else if (arg == "--no-prefix") {
            out.no_prefix = true;
        } else if (arg == "--idle-stop" || arg == "--max-children" || arg.starts_with("--child-")) {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
            const std::string_view value = argv[++i];
            if (arg == "--idle-stop")
                out.limits.idle_stop = parse_duration(arg, value);
            else if (arg == "--max-children")
                out.limits.max_children = parse_count(arg, value, 10'000);
            else if (!take_resource_limit(arg, value, out.limits.resources))
                throw std::invalid_argument("unknown option " + std::string(arg));
        } else if (arg.starts_with("--servers=")) {
            take_servers(arg.substr(std::string_view("--servers=").size()));
        } else {
            if (arg == "--help" || arg == "-h") out.help = true;
            out.run_arguments.emplace_back(arg);
        }
    }
    if (!servers_given && servers_from_env != nullptr) out.servers_file = servers_from_env;
    return out;
}

}  // namespace mcp_gateway
