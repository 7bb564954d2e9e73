#pragma once
// An in-process connection to a Server, with no transport at all: for embedding mcp-cpp in an
// application that already has its own channel, and for tests.
//
//   mcp::LocalConnection conn(server);
//   auto messages = conn.send(initialize_request);   // every message produced, the response last
#include <mcp/server/request_context.hpp>

#include <boost/json/value.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace mcp {

class Server;
class Session;

class LocalConnection {
public:
    // `principal`: who the application says is on the other end (null: anonymous); the scopes
    // that tools declare are checked against it.
    explicit LocalConnection(Server& server, std::shared_ptr<const Principal> principal = nullptr);
    ~LocalConnection();
    LocalConnection(const LocalConnection&) = delete;
    LocalConnection& operator=(const LocalConnection&) = delete;

    // Handles one message and waits until the server is done with it. Returns what it produced
    // for it, in order: notifications (progress, log messages), then the response if there is one.
    std::vector<boost::json::value> send(const boost::json::value& message);

    // Starts handling a message and returns at once; `on_message` is called for each message
    // produced for it (from handler threads), `on_done` once at the end.
    void send_async(const boost::json::value& message, std::function<void(const boost::json::value&)> on_message,
                    std::function<void()> on_done = {});

    // Messages not tied to a call (list_changed, resources/updated) received so far; clears them.
    std::vector<boost::json::value> take_notifications();

    const std::shared_ptr<Session>& session() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace mcp
