#pragma once
// A 2025-era session: what initialize negotiated, the client's log level and resource
// subscriptions, and the calls in flight (so notifications/cancelled can reach them).
// On stdio the whole connection is one session; over HTTP each Mcp-Session-Id is one. An
// application with a connection of its own gets one from Server::open_session.
#include <mcp/protocol/message_sink.hpp>
#include <mcp/protocol/types.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace mcp {

namespace detail {
class SessionState;
}

class Session {
public:
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    const std::string& id() const;
    // After a successful initialize.
    bool initialized() const;
    std::shared_ptr<const ClientState> client() const;
    LogLevel log_level() const;
    // The subject of the principal that initialized the session ("" when anonymous). Requests
    // of another principal are refused the session.
    std::string owner() const;
    bool subscribed(std::string_view uri) const;

    // Sends a message on the session's channel (messages tied to no call); false when there is no
    // open channel.
    bool notify(boost::json::value message);

    // The client went away: nothing more can be sent to it on the session's channel. Calls in
    // flight run to their end; subscriptions/listen streams end.
    void close();
    bool closed() const;
    // The session is over (deleted, expired): every call in flight is cancelled, as if the
    // client had sent notifications/cancelled for it.
    void cancel_all();
    // Waits until no call of this session is in flight.
    void wait_idle();

private:
    friend class detail::SessionState;  // the library's side of a session (src/sessions)
    explicit Session(std::unique_ptr<detail::SessionState> state);
    std::unique_ptr<detail::SessionState> state_;
};

}  // namespace mcp
