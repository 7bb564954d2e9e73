#include "server/audit_log.hpp"

#include "server/call.hpp"

#include <boost/json/serialize.hpp>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace mcp::detail {

namespace {

// Arguments past this size are left out (their size is given): an audit line stays a line.
constexpr std::size_t kMaxArgumentBytes = 16 * 1024;
// A name a client sent that names nothing registered.
constexpr std::size_t kMaxNameBytes = 256;

std::string utc_now() {
    const auto now = std::chrono::system_clock::now();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(now)), ms);
}

std::string bounded(std::string_view text, std::size_t max) {
    if (text.size() <= max) return std::string(text);
    // Cut on a character boundary: the line must stay valid UTF-8.
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return std::string(text.substr(0, cut)) + "…";
}

}  // namespace

AuditLog::AuditLog(const AuditOptions& options) : arguments_(options.arguments) {
    if (options.path == "stderr") {
        file_ = stderr;
        owned_ = false;
        return;
    }
    file_ = std::fopen(options.path.c_str(), "a");
    if (file_ == nullptr) {
        throw std::runtime_error("cannot open the audit log " + options.path + ": " + std::strerror(errno));
    }
    owned_ = true;
}

AuditLog::~AuditLog() {
    if (owned_) std::fclose(file_);
}

void AuditLog::record(const CallState& call, std::string_view kind, std::string_view name, Outcome outcome,
                      std::chrono::nanoseconds duration) {
    boost::json::object line;
    line["time"] = utc_now();
    line["audit"] = call.message.method;
    line["kind"] = kind;
    line["name"] = bounded(name, kMaxNameBytes);
    line["outcome"] = to_string(outcome);
    line["duration_ms"] = static_cast<double>(duration.count()) / 1e6;
    line["request_id"] = call.message.id;
    if (call.exchange) {
        const auto& principal = call.exchange->principal();
        line["principal"] = principal ? boost::json::value(principal->subject) : boost::json::value(nullptr);
        line["era"] = call.exchange->era() == Era::stateless ? "2026" : "2025";
        if (const auto& client = call.exchange->client_info().name; !client.empty())
            line["client"] = bounded(client, 256);
    }
    if (call.session && !call.session->id().empty()) line["session"] = call.session->id();
    if (!call.trace.trace_id.empty()) {
        line["trace_id"] = call.trace.trace_id.view();
        line["span_id"] = call.trace.span_id.view();
    }
    if (arguments_) {
        if (const auto* arguments = call.params().if_contains("arguments")) {
            auto text = boost::json::serialize(*arguments);
            if (text.size() <= kMaxArgumentBytes)
                line["arguments"] = *arguments;
            else
                line["arguments_bytes"] = text.size();
        }
    }
    auto text = boost::json::serialize(line);
    text += '\n';
    std::lock_guard lock(mutex_);
    std::fwrite(text.data(), 1, text.size(), file_);
    std::fflush(file_);
}

}  // namespace mcp::detail
