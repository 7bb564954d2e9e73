#include "terminal.hpp"

#include <boost/json/serialize.hpp>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace mcp_client_tool {

namespace {

constexpr int kAttempts = 3;
constexpr std::size_t kBarWidth = 30;

ProgressBar* g_active_progress = nullptr;

struct CloseFile {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, CloseFile>;

// A server's text fit for the terminal: no escape sequences, no line breaks of its own.
std::string shown(std::string_view text, std::size_t max = 1000) {
    std::string out;
    for (unsigned char c : text.substr(0, max)) out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
    return out;
}

std::optional<std::string> read_line(std::FILE* tty) {
    std::string line;
    for (int c = std::fgetc(tty); c != EOF; c = std::fgetc(tty)) {
        if (c == '\n') return line;
        line += static_cast<char>(c);
    }
    if (line.empty()) return std::nullopt;
    return line;
}

std::string string_of(const boost::json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

// A field's answer as the schema's type wants it; nullopt when it is not one.
std::optional<boost::json::value> typed(const boost::json::object& property, const std::string& text) {
    const auto type = string_of(property, "type");
    if (const auto* choices = property.if_contains("enum"); choices != nullptr && choices->is_array()) {
        for (const auto& c : choices->get_array()) {
            if (c.is_string() && c.get_string() == text) return c;
        }
        return std::nullopt;
    }
    if (type == "boolean") {
        if (text == "y" || text == "yes" || text == "true") return true;
        if (text == "n" || text == "no" || text == "false") return false;
        return std::nullopt;
    }
    if (type == "integer") {
        std::int64_t i = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
        if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
        return i;
    }
    if (type == "number") {
        double d = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
        if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
        return d;
    }
    return boost::json::value(text);
}

std::string hint(const boost::json::object& property) {
    std::string out = string_of(property, "type");
    if (const auto* choices = property.if_contains("enum"); choices != nullptr && choices->is_array()) {
        out = "one of";
        for (const auto& c : choices->get_array()) out.append(" ").append(boost::json::serialize(c));
    }
    if (out == "boolean") out = "y/n";
    if (const auto* d = property.if_contains("default")) out.append(", default ").append(boost::json::serialize(*d));
    return out;
}

}  // namespace

std::mutex& terminal_mutex() {
    static std::mutex m;
    return m;
}

void set_active_progress(ProgressBar* bar) {
    std::lock_guard lock(terminal_mutex());
    g_active_progress = bar;
}

mcp::ElicitResult ask_on_terminal(const mcp::Elicitation& request) {
    std::lock_guard lock(terminal_mutex());
    if (g_active_progress != nullptr) g_active_progress->erase();
    const File tty(std::fopen("/dev/tty", "r+"));
    if (!tty) {
        std::cerr << "mcp-cpp-client: the server asks \"" << shown(request.message)
                  << "\", and there is no terminal to answer on: declined\n";
        return {mcp::ElicitAction::decline, {}};
    }
    auto* out = tty.get();
    std::fprintf(out, "\nThe server asks: %s\n", shown(request.message).c_str());
    const auto* properties = request.requested_schema.if_contains("properties");
    boost::json::object content;
    std::vector<std::string> required;
    if (const auto* r = request.requested_schema.if_contains("required"); r != nullptr && r->is_array()) {
        for (const auto& name : r->get_array()) {
            if (name.is_string()) required.emplace_back(name.get_string());
        }
    }
    if (properties != nullptr && properties->is_object()) {
        for (const auto& [name, value] : properties->get_object()) {
            if (!value.is_object()) continue;
            const auto& property = value.get_object();
            const auto label =
                shown(string_of(property, "title").empty() ? std::string(name) : string_of(property, "title"));
            const bool needed =
                std::find(required.begin(), required.end(), name) != required.end() && !property.contains("default");
            bool answered = false;
            for (int attempt = 0; attempt < kAttempts && !answered; ++attempt) {
                std::fprintf(out, "  %s (%s)%s: ", label.c_str(), shown(hint(property)).c_str(),
                             needed ? "" : " [optional]");
                std::fflush(out);
                const auto line = read_line(out);
                if (!line) return {mcp::ElicitAction::cancel, {}};  // the terminal closed
                if (line->empty() && !needed) break;
                if (auto v = typed(property, *line)) {
                    content[name] = std::move(*v);
                    answered = true;
                } else {
                    std::fprintf(out, "    not a valid answer (%s)\n", shown(hint(property)).c_str());
                }
            }
            if (!answered && needed) return {mcp::ElicitAction::cancel, {}};
        }
    }
    std::fprintf(out, "Send this answer? [Y]es, [n]o (decline), [c]ancel: ");
    std::fflush(out);
    const auto choice = read_line(out).value_or("c");
    if (choice.empty() || choice == "y" || choice == "yes") return {mcp::ElicitAction::accept, std::move(content)};
    if (choice == "n" || choice == "no") return {mcp::ElicitAction::decline, {}};
    return {mcp::ElicitAction::cancel, {}};
}

ProgressBar::ProgressBar() : terminal_(::isatty(STDERR_FILENO) == 1) {}

void ProgressBar::update(const mcp::Progress& progress) {
    if (!terminal_) return;
    std::lock_guard lock(terminal_mutex());
    std::string line = "\r\x1b[K[";
    if (progress.total && *progress.total > 0) {
        const double share = std::clamp(progress.progress / *progress.total, 0.0, 1.0);
        const auto filled = static_cast<std::size_t>(share * kBarWidth);
        line.append(filled, '#').append(kBarWidth - filled, ' ').append("] ");
        line.append(std::to_string(static_cast<int>(share * 100))).append("%");
    } else {
        line.append(std::to_string(static_cast<std::int64_t>(progress.progress))).append("]");
    }
    if (!progress.message.empty()) line.append(" ").append(shown(progress.message, 60));
    std::cerr << line << std::flush;
    drawn_ = true;
}

void ProgressBar::clear() {
    std::lock_guard lock(terminal_mutex());
    erase();
}

void ProgressBar::erase() {
    if (!drawn_) return;
    std::cerr << "\r\x1b[K" << std::flush;
    drawn_ = false;
}

}  // namespace mcp_client_tool
