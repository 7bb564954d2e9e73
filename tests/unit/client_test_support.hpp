#pragma once
// Small helpers the client tests share: a bounded wait for what another thread makes true, the
// first text of a tool result, an environment variable, and a scratch directory.
#include <mcp/protocol/content.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <variant>

namespace client_testing {

// Polls `done` until it holds or `limit` passes (a bound on a failing test's wait, not a
// measurement); its last answer.
template <class F>
bool eventually(F done, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return done();
}

inline std::string first_text(const mcp::CallToolResult& result) {
    if (result.content.empty()) return "(no content)";
    const auto* t = std::get_if<mcp::TextContent>(&result.content.front());
    return t != nullptr ? t->text : "(not text)";
}

// An environment variable, empty when unset.
inline std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

// A directory of its own under the system's temporary one, removed with everything in it.
class TempDir {
public:
    TempDir()
        : path_(std::filesystem::temp_directory_path() /
                ("mcp-client-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++))) {
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        std::ofstream(path_ / name, std::ios::binary) << text;
        return path_ / name;
    }

private:
    static std::atomic<int>& counter() {
        static std::atomic<int> n{0};
        return n;
    }
    std::filesystem::path path_;
};

}  // namespace client_testing
