#pragma once
// JSON-RPC 2.0 framing: parsing with limits, classifying a message, building replies.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace mcp::jsonrpc {

struct Limits {
    std::size_t max_message_bytes = 4 * 1024 * 1024;
    std::size_t max_depth = 64;  // nesting of arrays and objects
};

enum class Kind { request, notification, response };

// A well-formed inbound message. Views point into the parsed document, which must outlive it.
struct Message {
    Kind kind = Kind::request;
    boost::json::value id;                        // string or integer; null for notifications
    std::string_view method;                      // requests and notifications
    const boost::json::object* params = nullptr;  // absent params: nullptr
    const boost::json::value* result = nullptr;   // successful responses
    const boost::json::object* error = nullptr;   // error responses
};

// A message that must be answered with an error response (id may be null).
struct Failure {
    int code;
    std::string message;
    boost::json::value id;
};

// Parses one message's text. Oversized or too deep text, malformed JSON or invalid UTF-8 yield a
// Failure (-32600 for size, -32700 otherwise, id null).
std::variant<boost::json::value, Failure> parse(std::string_view text, const Limits& limits);

// Checks the JSON-RPC 2.0 shape: a batch (array) is refused with -32600 since MCP 2025-06-18;
// a request id must be a string or an integer; params, when present, must be an object.
std::variant<Message, Failure> classify(const boost::json::value& document);

// The envelope is built in `storage` (default storage when omitted); a result in that same
// storage moves in, any other is copied.
boost::json::value make_result(const boost::json::value& id, boost::json::value result,
                               boost::json::storage_ptr storage = {});
boost::json::value make_error(const boost::json::value& id, int code, std::string_view message,
                              const boost::json::value& data = nullptr);
boost::json::value make_notification(std::string_view method, boost::json::object params);
boost::json::value make_request(const boost::json::value& id, std::string_view method, boost::json::object params);

}  // namespace mcp::jsonrpc
