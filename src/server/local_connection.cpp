#include <mcp/server/local_connection.hpp>

#include <mcp/server/server.hpp>

#include <condition_variable>
#include <mutex>

namespace mcp {

namespace {

class CallbackSink final : public CallSink {
public:
    CallbackSink(std::function<void(const boost::json::value&)> on_message, std::function<void()> on_done)
        : on_message_(std::move(on_message)), on_done_(std::move(on_done)) {}
    bool send(boost::json::value message) override {
        on_message_(message);
        return true;
    }
    void complete(std::optional<boost::json::value> response) override {
        if (response) on_message_(*response);
        if (on_done_) on_done_();
    }

private:
    std::function<void(const boost::json::value&)> on_message_;
    std::function<void()> on_done_;
};

class Inbox final : public MessageSink {
public:
    bool send(boost::json::value message) override {
        std::lock_guard lock(mutex);
        messages.push_back(std::move(message));
        return true;
    }
    std::mutex mutex;
    std::vector<boost::json::value> messages;
};

}  // namespace

struct LocalConnection::Impl {
    Server* server;
    std::shared_ptr<Inbox> inbox = std::make_shared<Inbox>();
    std::shared_ptr<Session> session;
    std::shared_ptr<const Principal> principal;
};

LocalConnection::LocalConnection(Server& server, std::shared_ptr<const Principal> principal)
    : impl_(std::make_unique<Impl>()) {
    impl_->server = &server;
    impl_->principal = std::move(principal);
    impl_->session = server.open_session(impl_->inbox);
}

LocalConnection::~LocalConnection() {
    impl_->session->close();
    impl_->session->wait_idle();
}

std::vector<boost::json::value> LocalConnection::send(const boost::json::value& message) {
    struct Result {
        std::mutex mutex;
        std::condition_variable done_cv;
        bool done = false;
        std::vector<boost::json::value> messages;
    };
    auto result = std::make_shared<Result>();
    send_async(
        message,
        [result](const boost::json::value& m) {
            std::lock_guard lock(result->mutex);
            result->messages.push_back(m);
        },
        [result] {
            std::lock_guard lock(result->mutex);
            result->done = true;
            result->done_cv.notify_all();
        });
    std::unique_lock lock(result->mutex);
    result->done_cv.wait(lock, [&] { return result->done; });
    return std::move(result->messages);
}

void LocalConnection::send_async(const boost::json::value& message,
                                 std::function<void(const boost::json::value&)> on_message,
                                 std::function<void()> on_done) {
    impl_->server->handle(message, Inbound{impl_->session, {}, nullptr, impl_->principal},
                          std::make_shared<CallbackSink>(std::move(on_message), std::move(on_done)));
}

std::vector<boost::json::value> LocalConnection::take_notifications() {
    std::lock_guard lock(impl_->inbox->mutex);
    return std::exchange(impl_->inbox->messages, {});
}

const std::shared_ptr<Session>& LocalConnection::session() const { return impl_->session; }

}  // namespace mcp
