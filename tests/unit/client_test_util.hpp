#pragma once
// Small helpers the client's end-to-end tests share: the first text of a tool result, and waiting
// for a condition that another thread makes true.
#include <mcp/protocol/content.hpp>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <variant>

namespace client_test {

inline std::string first_text(const mcp::CallToolResult& result) {
    if (result.content.empty()) return "(no content)";
    const auto* t = std::get_if<mcp::TextContent>(&result.content.front());
    return t != nullptr ? t->text : "(not text)";
}

// Polls `done` every 10 ms until it holds or `limit` passed; its last answer.
template <class F>
bool eventually(F done, std::chrono::milliseconds limit = std::chrono::seconds(5)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

// An environment variable, empty when unset.
inline std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

}  // namespace client_test
