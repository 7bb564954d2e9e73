#include <mcp/bridge/in_process.hpp>

#include <mcp/server/server.hpp>
#include <mcp/server/sink.hpp>
#include <mcp/sessions/session.hpp>

#include <boost/json/serialize.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <utility>

namespace mcp {

namespace {

class InProcessTransport final : public ClientTransport, public std::enable_shared_from_this<InProcessTransport> {
public:
    InProcessTransport(Server& server, InProcessOptions options) : server_(server), options_(std::move(options)) {}

    void open(boost::asio::io_context&, TransportEvents events) override {
        events_ = std::move(events);
        session_ = server_.open_session(std::make_shared<ToClient>(weak_from_this()));
    }

    bool mirrors_headers() const override { return false; }

    void send(OutboundMessage message) override {
        if (closed_.load()) {
            if (message.failed) message.failed({"the in-process connection is closed", 0, {}});
            return;
        }
        server_.handle(message.text, Inbound{.session = session_, .principal = options_.principal},
                       std::make_shared<ToClient>(weak_from_this()));
    }

    void close() override {
        {
            std::unique_lock lock(mutex_);
            if (closed_.exchange(true) || !session_) return;
            // A server thread still handing a message to the client finishes before the client goes
            // on to tear itself down (one on this very thread, closing from its callback, cannot).
            const int own = delivering_here == this ? 1 : 0;
            idle_.wait(lock, [&] { return delivering_ <= own; });
        }
        // The client has failed its calls in flight already: the server stops them too.
        session_->cancel_all();
        session_->close();
        if (events_.closed) events_.closed("the in-process connection was closed");
    }

    void deliver(const boost::json::value& message) {
        {
            std::lock_guard lock(mutex_);
            if (closed_.load() || !events_.message) return;
            ++delivering_;
        }
        // Counted out however the client's callback returns.
        struct Delivering {
            InProcessTransport& transport;
            const InProcessTransport* previous = std::exchange(delivering_here, &transport);
            ~Delivering() {
                delivering_here = previous;
                std::lock_guard lock(transport.mutex_);
                if (--transport.delivering_ == 0) transport.idle_.notify_all();
            }
        } delivering{*this};
        events_.message(boost::json::serialize(message));
    }

private:
    // Everything the server sends for one message (its CallSink), or on the session's channel.
    class ToClient final : public CallSink {
    public:
        explicit ToClient(std::weak_ptr<InProcessTransport> transport) : transport_(std::move(transport)) {}
        bool send(boost::json::value message) override {
            auto t = transport_.lock();
            if (!t || t->closed_.load()) return false;
            t->deliver(message);
            return true;
        }
        void complete(std::optional<boost::json::value> response) override {
            if (response) send(std::move(*response));
        }

    private:
        std::weak_ptr<InProcessTransport> transport_;
    };

    // The transport whose deliver() runs on this thread, if any.
    static thread_local const InProcessTransport* delivering_here;

    Server& server_;
    InProcessOptions options_;
    TransportEvents events_;
    std::shared_ptr<Session> session_;
    std::atomic<bool> closed_{false};
    std::mutex mutex_;  // closed_'s change against deliveries starting, and the count below
    std::condition_variable idle_;
    int delivering_ = 0;  // deliver() calls under way
};

thread_local const InProcessTransport* InProcessTransport::delivering_here = nullptr;

}  // namespace

std::shared_ptr<ClientTransport> in_process(Server& server, InProcessOptions options) {
    return std::make_shared<InProcessTransport>(server, std::move(options));
}

}  // namespace mcp
