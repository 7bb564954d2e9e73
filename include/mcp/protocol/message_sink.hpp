#pragma once
// Where JSON-RPC messages go: a stream, a connection, a test's inbox.
#include <boost/json/value.hpp>

namespace mcp {

// Receives messages. Implementations must be thread-safe: handler threads send concurrently.
class MessageSink {
public:
    virtual ~MessageSink() = default;
    // A notification or a request. Returns false when the message could not be delivered
    // (the stream is closed).
    virtual bool send(boost::json::value message) = 0;
};

}  // namespace mcp
