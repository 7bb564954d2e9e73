#include "util/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

namespace mcp::detail {

spdlog::logger& log() {
    static auto logger = [] {
        auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
        auto l = std::make_shared<spdlog::logger>("mcp", std::move(sink));
        l->set_level(spdlog::level::info);
        return l;
    }();
    return *logger;
}

}  // namespace mcp::detail
