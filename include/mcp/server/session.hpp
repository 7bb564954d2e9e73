#pragma once
// A 2025-era session: what initialize negotiated, the client's log level and resource
// subscriptions, and the calls in flight (so notifications/cancelled can reach them).
// On stdio the whole connection is one session; over HTTP each Mcp-Session-Id is one.
#include <mcp/protocol/types.hpp>
#include <mcp/server/sink.hpp>

#include <boost/json/object.hpp>

#include <memory>
#include <string>

namespace mcp {

// What the client declared about itself: at initialize (2025) or in each request's _meta (2026).
struct ClientState {
    std::string protocol_version;
    boost::json::object capabilities;
    Implementation info;
};

class Session {
public:
    // `channel` carries messages not tied to a call (list changes, resource updates):
    // stdout on stdio, the GET stream over HTTP. It may be null.
    explicit Session(std::shared_ptr<MessageSink> channel, std::string id = {});
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
    const std::string& owner() const;
    bool subscribed(std::string_view uri) const;

    // Sends a message on the session's channel; false when there is no open channel.
    bool notify(boost::json::value message);
    void set_channel(std::shared_ptr<MessageSink> channel);

    // The client went away: nothing more can be sent to it on the session's channel. Calls in
    // flight run to their end; subscriptions/listen streams end.
    void close();
    bool closed() const;
    // The session is over (deleted, expired): every call in flight is cancelled, as if the
    // client had sent notifications/cancelled for it.
    void cancel_all();
    // Waits until no call of this session is in flight.
    void wait_idle();

    struct Impl;
    Impl& impl() { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace mcp
