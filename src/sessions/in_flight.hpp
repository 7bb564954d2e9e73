#pragma once
// A request a session has in flight: what notifications/cancelled, a deleted session or a client
// that went away reach. The core's call state derives from it.
#include <boost/json/value.hpp>

#include <atomic>
#include <stop_token>
#include <string>

namespace mcp::detail {

struct InFlightCall {
    // The request id, serialized (request_key): "1" and 1 differ.
    std::string key;
    std::stop_source stop;
    // Set by notifications/cancelled: the response must not be sent.
    std::atomic<bool> cancelled_by_client{false};
    // A stream that only ends when the client goes (subscriptions/listen).
    bool ends_with_client = false;

    // As if the client had sent notifications/cancelled.
    void cancel() {
        cancelled_by_client.store(true);
        stop.request_stop();
    }
};

std::string request_key(const boost::json::value& id);

}  // namespace mcp::detail
