#include <mcp/run.hpp>

#include <mcp/server/server.hpp>
#include <mcp/transport/http.hpp>
#include <mcp/transport/stdio.hpp>

#include "run/options.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>

namespace mcp {

namespace {

// Serves on the chosen transport until it ends; exit code 1 when HTTP cannot start.
int serve(Server& server, const detail::RunOptions& options) {
    if (!options.serve_http) {
        detail::log().info("{} {} serving MCP on stdio", server.info().name, server.info().version);
        return serve_stdio(server, options.stdio);
    }
    try {
        return serve_http(server, options.http);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", server.info().name.c_str(), e.what());
        return 1;
    }
}

}  // namespace

int run(Server& server, int argc, char** argv) { return run(server, argc, argv, {}); }

int run(Server& server, int argc, char** argv, const std::function<void()>& ready) {
    detail::RunOptions options{.server = server.options()};
    options.http.io_threads = std::max(1u, std::thread::hardware_concurrency() / 2);

    CLI::App app{server.info().title.empty() ? server.info().name : server.info().title, server.info().name};
    app.set_version_flag("--version", server.info().version);
    detail::add_options(app, options);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }

    try {
        detail::finish_options(options);
        server.configure(options.server);
        if (const auto rate = detail::parse_rate(options.rate_limit))
            server.intercept(rate_limit(*rate, std::max(1.0, *rate)));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", server.info().name.c_str(), e.what());
        return 2;
    }
    detail::configure_logging(options.log_level, options.log_format);
    if (ready) {
        try {
            ready();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: error: %s\n", server.info().name.c_str(), e.what());
            return 2;
        }
    }

    const int code = serve(server, options);
    // Spans of the last calls go out within the grace SIGTERM leaves.
    if (!server.flush_traces(options.http.shutdown_grace)) detail::log().warn("spans still queued at exit were lost");
    // Handlers that ignore cancellation must not keep the process alive after shutdown.
    if (!server.wait_idle(std::chrono::milliseconds(0))) {
        detail::log().flush();
        std::_Exit(code);
    }
    return code;
}

}  // namespace mcp
