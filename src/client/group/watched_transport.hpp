#pragma once
// A transport that tells the group when it closed (the server went away), so that the server's
// thread reconnects it. Everything else goes to the transport it wraps.
#include <mcp/client/transport.hpp>

#include <functional>
#include <memory>
#include <string>

namespace mcp::detail {

class WatchedTransport final : public ClientTransport {
public:
    WatchedTransport(std::shared_ptr<ClientTransport> inner, std::function<void(const std::string& reason)> on_closed)
        : inner_(std::move(inner)), on_closed_(std::move(on_closed)) {}

    void open(boost::asio::io_context& io, TransportEvents events) override {
        events.closed = [client_closed = std::move(events.closed), on_closed = on_closed_](const std::string& reason) {
            if (client_closed) client_closed(reason);
            on_closed(reason);
        };
        inner_->open(io, std::move(events));
    }
    void send(OutboundMessage message) override { inner_->send(std::move(message)); }
    bool cancel(const boost::json::value& id) override { return inner_->cancel(id); }
    void close() override { inner_->close(); }

private:
    std::shared_ptr<ClientTransport> inner_;
    std::function<void(const std::string&)> on_closed_;
};

}  // namespace mcp::detail
