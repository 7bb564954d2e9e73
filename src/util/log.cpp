#include "util/log.hpp"

#include "util/utf8.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <spdlog/formatter.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <atomic>
#include <iterator>

namespace mcp::detail {

namespace {

std::atomic<LogContextSource> g_context_source{nullptr};

void append_json_string(spdlog::memory_buf_t& out, std::string_view text) {
    const std::string s = valid_utf8(text);  // a byte that is not UTF-8 would make the line invalid JSON
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
        if (auto source = g_context_source.load()) source(&add_field, &dest);
        dest.append(std::string_view("}\n"));
    }
    std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }

private:
    static void add_field(void* line, std::string_view name, std::string_view value) {
        auto& dest = *static_cast<spdlog::memory_buf_t*>(line);
        dest.push_back(',');
        append_json_string(dest, name);
        dest.push_back(':');
        append_json_string(dest, value);
    }
};

}  // namespace

void set_log_context_source(LogContextSource source) { g_context_source.store(source); }

std::string printable(std::string_view text, std::size_t max) {
    const bool cut = text.size() > max;
    if (cut) text = text.substr(0, max);
    std::string out;
    out.reserve(text.size() + 8);
    for (unsigned char c : valid_utf8(text)) {
        if (c < 0x20 || c == 0x7f)
            fmt::format_to(std::back_inserter(out), "\\x{:02x}", c);
        else
            out.push_back(static_cast<char>(c));
    }
    if (cut) out += "…";
    return out;
}

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
