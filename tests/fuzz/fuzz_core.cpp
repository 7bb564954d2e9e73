// The whole core: the input is a conversation, one message per line, handed to Server::handle on
// a session of its own the way the stdio transport hands over lines, with the demo's registry.
// Each message picks its era (2026-07-28 when params._meta says so). Three placeholders let an
// input reach what a real client reaches only by reading the server's answers:
//   @request  the id of the last request the server sent (elicitation, sampling, roots: 2025 wire)
//   @state    the last requestState of an input_required result (2026 wire)
//   @cursor   the last nextCursor of a list page
// Each message waits a moment for its answer, or for the server's question, then the next goes:
// a slow handler (slow_count) keeps running meanwhile, as it would on stdio; once the input's
// waiting time is spent, messages go without waiting. At the end the client goes away: its calls
// are cancelled and the server shuts down, which must not hang (-timeout).
// Every input gets a server of its own, so that a finding replays from its input alone.
#include <mcp/server/server.hpp>

#include "demo_server.hpp"

#include <boost/json/value.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace {

// How long a message waits for its answer before the next one goes, and how long all the
// messages of one input may wait together (slow calls cost the fuzzer time, not coverage).
constexpr std::chrono::milliseconds kAnswerWait{25};
constexpr std::chrono::milliseconds kInputWait{500};

// What the client has learnt from the server's messages, to fill in the placeholders.
class Conversation {
public:
    void learn(const boost::json::value& message) {
        const auto* object = message.if_object();
        if (object == nullptr) return;
        std::lock_guard lock(mutex_);
        const auto* id = object->if_contains("id");
        if (object->contains("method") && id != nullptr && id->is_string()) request_ = id->get_string();
        const auto* result = object->if_contains("result");
        if (result == nullptr || !result->is_object()) return;
        if (const auto* state = result->get_object().if_contains("requestState"); state && state->is_string())
            state_ = state->get_string();
        if (const auto* cursor = result->get_object().if_contains("nextCursor"); cursor && cursor->is_string())
            cursor_ = cursor->get_string();
    }

    std::string fill(std::string_view line) const {
        std::string out(line);
        std::lock_guard lock(mutex_);
        replace(out, "@request", request_);
        replace(out, "@state", state_);
        replace(out, "@cursor", cursor_);
        return out;
    }

private:
    static void replace(std::string& text, std::string_view placeholder, const std::string& value) {
        if (value.empty()) return;
        for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size()))
            text.replace(at, placeholder.size(), value);
    }

    mutable std::mutex mutex_;
    std::string request_;
    std::string state_;
    std::string cursor_;
};

// The messages produced for one line.
class LineSink final : public mcp::CallSink {
public:
    explicit LineSink(Conversation& conversation) : conversation_(conversation) {}

    bool send(boost::json::value message) override {
        conversation_.learn(message);
        if (message.is_object() && message.get_object().contains("method") && message.get_object().contains("id"))
            signal(asked_);
        return true;
    }
    void complete(std::optional<boost::json::value> response) override {
        if (response) conversation_.learn(*response);
        signal(done_);
    }
    // Until the line is answered, or the server asks the client something, or `timeout` is over.
    void wait(std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, timeout, [this] { return done_ || asked_; });
    }

private:
    void signal(bool& flag) {
        std::lock_guard lock(mutex_);
        flag = true;
        changed_.notify_all();
    }

    Conversation& conversation_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool done_ = false;
    bool asked_ = false;
};

// The session's own channel: list changes, resource updates.
class Channel final : public mcp::MessageSink {
public:
    explicit Channel(Conversation& conversation) : conversation_(conversation) {}
    bool send(boost::json::value message) override {
        conversation_.learn(message);
        return true;
    }

private:
    Conversation& conversation_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    Conversation conversation;  // outlives the server: handlers still running write to it
    auto server = fuzzing::make_demo_server();
    auto session = server->open_session(std::make_shared<Channel>(conversation));
    const auto give_up = std::chrono::steady_clock::now() + kInputWait;
    while (!input.empty()) {
        const auto nl = input.find('\n');
        const auto line = input.substr(0, nl);
        input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
        if (line.empty()) continue;
        auto sink = std::make_shared<LineSink>(conversation);
        server->handle(conversation.fill(line), mcp::Inbound{.session = session}, sink);
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
        if (left.count() > 0) sink->wait(std::min(left, kAnswerWait));
    }
    session->close();
    session->cancel_all();
    server->cancel_all();
    session->wait_idle();
    session.reset();
    server.reset();  // shuts down: waits for every call still running
    return 0;
}
