#pragma once
// JSON-RPC and MCP error codes, the exceptions handler code throws to produce them, and the one
// it may catch from the framework when the shared store is down.
#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>

namespace mcp {

namespace error_code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
// 2025-11-25 and earlier: a resources/read of an unknown URI (2026-07-28 uses invalid_params).
inline constexpr int resource_not_found = -32002;
inline constexpr int url_elicitation_required = -32042;
// 2026-07-28.
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_required_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;
}  // namespace error_code

// Raised anywhere in handler or framework code: becomes a JSON-RPC error response with this code,
// message and data. (In a tool, only codes the protocol reserves should be used this way; any
// other exception from a tool becomes an isError result the model can read.)
class Error : public std::runtime_error {
public:
    Error(int code, std::string message, boost::json::value data = nullptr)
        : std::runtime_error(message), code_(code), message_(std::move(message)), data_(std::move(data)) {}
    int code() const noexcept { return code_; }
    // The whole message, sent to the client; what() stops at a NUL the message may quote.
    const std::string& message() const noexcept { return message_; }
    const boost::json::value& data() const noexcept { return data_; }

private:
    int code_;
    std::string message_;
    boost::json::value data_;
};

// -32602 Invalid params.
class InvalidParams : public Error {
public:
    explicit InvalidParams(std::string message, boost::json::value data = nullptr)
        : Error(error_code::invalid_params, std::move(message), std::move(data)) {}
};

// A resource that does not exist: -32002 on the 2025 wire, -32602 on the 2026 wire; data.uri.
class ResourceNotFound : public Error {
public:
    explicit ResourceNotFound(const std::string& uri);
    const std::string& uri() const noexcept { return uri_; }

private:
    std::string uri_;
};

// Thrown by a tool to return {"isError": true} with this message as text content. Any other
// std::exception from a tool has the same effect, with its what() as the text.
class ToolError : public std::runtime_error {
public:
    explicit ToolError(const std::string& message) : std::runtime_error(message) {}
};

// The shared store (Redis) cannot be reached or did not answer in time. Requests that need it are
// answered 503 with a JSON-RPC error; 2026-era requests, which need no store, go on being served.
class StoreUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace mcp
