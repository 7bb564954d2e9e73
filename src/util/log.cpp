#include "util/log.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <spdlog/formatter.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace mcp::detail {

namespace {

void append_json_string(spdlog::memory_buf_t& out, std::string_view s) {
    out.push_back('"');
    for (unsigned char c : s) {
        switch (c) {
            case '"': out.append(std::string_view("\\\"")); break;
            case '\\': out.append(std::string_view("\\\\")); break;
            case '\n': out.append(std::string_view("\\n")); break;
            case '\r': out.append(std::string_view("\\r")); break;
            case '\t': out.append(std::string_view("\\t")); break;
            default:
                if (c < 0x20)
                    fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
                else
                    out.push_back(static_cast<char>(c));
        }
    }
    out.push_back('"');
}

// One JSON object per line, for log shippers.
class JsonFormatter final : public spdlog::formatter {
public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count() % 1000;
        fmt::format_to(std::back_inserter(dest), "{{\"time\":\"{:%Y-%m-%dT%H:%M:%S}.{:03}Z\",\"level\":",
                       fmt::gmtime(std::chrono::system_clock::to_time_t(msg.time)), ms);
        const auto level = spdlog::level::to_string_view(msg.level);
        append_json_string(dest, std::string_view(level.data(), level.size()));
        dest.append(std::string_view(",\"logger\":"));
        append_json_string(dest, std::string_view(msg.logger_name.data(), msg.logger_name.size()));
        dest.append(std::string_view(",\"msg\":"));
        append_json_string(dest, std::string_view(msg.payload.data(), msg.payload.size()));
        dest.append(std::string_view("}\n"));
    }
    std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

}  // namespace

spdlog::logger& log() {
    static auto logger = [] {
        auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
        auto l = std::make_shared<spdlog::logger>("mcp", std::move(sink));
        l->set_level(spdlog::level::info);
        return l;
    }();
    return *logger;
}

bool configure_logging(std::string_view level, std::string_view format) {
    const auto parsed = spdlog::level::from_str(std::string(level));
    // from_str answers "off" for anything it does not know.
    if (parsed == spdlog::level::off && level != "off") return false;
    if (format == "json")
        log().set_formatter(std::make_unique<JsonFormatter>());
    else if (format == "text")
        log().set_formatter(std::make_unique<spdlog::pattern_formatter>());
    else
        return false;
    log().set_level(parsed);
    return true;
}

}  // namespace mcp::detail
